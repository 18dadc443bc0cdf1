// `qualrank completion bash|zsh|fish`: the shell's completion script. Each script only asks the binary: it
// passes the words of the line to the hidden `qualrank __complete` (complete.cpp, as Cobra's __complete) and
// offers what it prints, so the three shells complete the same commands, options and workspace values, all
// from the command table. See README, "Install".
#include <iostream>

#include "../cli.h"

namespace qualrank::cli {

namespace {

// Bash: the words up to the cursor (COMP_WORDS splits "--opt=value" at '=': the helper joins them). Readline
// inserts a candidate as it is, after the quote the user opened, so each value is escaped for the quoting the
// word is in: none (printf %q), '...' (a ' written '\''), "..." (\ $ ` " escaped, ! outside the quotes) or
// $'...' (\ and ' escaped), the quote closed where readline would not close it; in a quoted word a value
// with a control character is not offered. Where the quoting cannot be told safely (a quote opened inside the
// word, a quote already closed, $ or ` typed in it) nothing is offered. The word is passed to the helper unquoted. ":1"/":2" ask for file or folder names.
const char* const kBash = R"(# bash completion for qualrank. Made by 'qualrank completion bash'; do not edit.
_qualrank() {
    local cur=${COMP_WORDS[COMP_CWORD]} out line directive=0 quote= rest= c i
    local -a words=("${COMP_WORDS[@]:1:COMP_CWORD}")
    case $cur in
        \$\'*) quote=ansi; cur=${cur:2} ;;
        \'*) quote=single; cur=${cur:1} ;;
        \"*) quote=double; cur=${cur:1} ;;
    esac
    for ((i = 0; i < ${#cur}; i++)); do
        c=${cur:i:1}
        case $quote$c in
            single\') return 0 ;;
            single*) ;;
            ansi\' | ansi\\) return 0 ;;
            ansi*) ;;
            double\" | double\$ | double\` | \" | \' | \$ | \`) return 0 ;;
            double\\) c=${cur:i+1:1}; [[ $c == [\\\"\$\`] ]] && ((++i)) || c=\\ ;;
            \\) ((i++)); c=${cur:i:1} ;;
        esac
        rest+=$c
    done
    words[${#words[@]}-1]=$rest
    out=$("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null) || return 0
    COMPREPLY=()
    while IFS= read -r line; do
        case $line in
            '') continue ;;
            :[0-9]) directive=${line#:}; continue ;;
        esac
        line=${line%%$'\t'*}
        case $quote in
            '') [[ $line != *[^A-Za-z0-9._,:/=@+%-]* ]] || printf -v line '%q' "$line" ;;
            *) [[ $line == *[[:cntrl:]]* ]] && continue ;;&
            single) line=${line//\'/\'\\\'\'} ;;
            double) line=${line//\\/\\\\}; line=${line//\"/\\\"}; line=${line//\$/\\\$}; line=${line//\`/\\\`}
                    line=${line//!/\"\'!\'\"} ;;
            ansi) line=${line//\\/\\\\}; line=${line//\'/\\\'} ;;
        esac
        # Readline closes the quote after a lone candidate unless the line already ends with the quote
        # character; an escaped value that does (an escaped ' or ", a ! outside the quotes) is closed here.
        case $quote${line: -1} in
            single\' | ansi\' | double\") line+=${line: -1} ;;
        esac
        COMPREPLY+=("$line")
    done <<<"$out"
    [[ $rest == = ]] && rest=
    case $directive in
        1) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$rest") ;;
        2) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$rest") ;;
    esac
    return 0
}
complete -F _qualrank qualrank
)";

// Zsh: VALUE<TAB>DESCRIPTION becomes _describe's VALUE:DESCRIPTION (backslashes and colons in the value
// escaped, as _describe reads them); compadd then quotes the value for the word's own quoting.
const char* const kZsh = R"(#compdef qualrank
# zsh completion for qualrank. Made by 'qualrank completion zsh'; do not edit.
_qualrank() {
    local out line value directive=0
    local -a candidates
    out=$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    for line in "${(@f)out}"; do
        case $line in
            '') ;;
            :<->) directive=${line#:} ;;
            *$'\t'*) value=${line%%$'\t'*}; candidates+=("${${value//\\/\\\\}//:/\\:}:${line#*$'\t'}") ;;
            *) candidates+=("${${line//\\/\\\\}//:/\\:}") ;;
        esac
    done
    case $directive in
        1) _files ;;
        2) _files -/ ;;
        *) (( ${#candidates} )) && _describe -t values qualrank candidates ;;
    esac
}
if [[ $funcstack[1] == _qualrank ]]; then
    _qualrank "$@"
else
    compdef _qualrank qualrank
fi
)";

// Fish: prints VALUE<TAB>DESCRIPTION as fish reads it.
const char* const kFish = R"(# fish completion for qualrank. Made by 'qualrank completion fish'; do not edit.
function __qualrank_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($words[1] __complete $words[2..-1] "$cur" 2>/dev/null)
    or return 0
    set -l directive 0
    for line in $out
        if string match -qr '^:[0-9]$' -- $line
            set directive (string sub -s 2 -- $line)
        else
            printf '%s\n' $line
        end
    end
    switch $directive
        case 1
            __fish_complete_path "$cur"
        case 2
            __fish_complete_directories "$cur"
    end
end
complete -c qualrank -f -a '(__qualrank_complete)'
)";

}  // namespace

int cmd_completion(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("completion options");
  desc.add_options()("shell", po::value<std::string>(), "bash, zsh or fish");
  po::positional_options_description pos;
  pos.add("shell", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "completion", "bash|zsh|fish\n\n"
                     "Prints the shell's completion script; it completes commands, options, and the workspace's node\n"
                     "ids and names, transcripts, coders, questions and roles. To enable it for this shell:\n"
                     "  source <(qualrank completion bash)      (zsh: the same with zsh)\n"
                     "  qualrank completion fish | source",
                     desc, args, vm, rc, &pos))
    return rc;
  if (!vm.count("shell")) {
    *ctx.err << "qualrank completion: error: name the shell: bash, zsh or fish\n(see 'qualrank completion --help')\n";
    return 2;
  }
  const auto& shell = vm["shell"].as<std::string>();
  if (!check_choice(ctx, "completion", "shell", shell, {"bash", "zsh", "fish"})) return 2;
  *ctx.out << (shell == "bash" ? kBash : shell == "zsh" ? kZsh : kFish);
  return 0;
}

}  // namespace qualrank::cli
