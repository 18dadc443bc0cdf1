#include "catch.h"
#include <cmath>

#include "qualrank/util/text.h"

using namespace qualrank;

TEST_CASE("text::find_invalid_utf8 locates the first bad byte", "[util]") {
  CHECK_FALSE(text::find_invalid_utf8("plain ascii\nand Größe").has_value());
  auto bad = text::find_invalid_utf8("ok\nab\xC3(x");  // C3 needs a continuation byte
  REQUIRE(bad.has_value());
  CHECK(bad->line == 2);
  CHECK(bad->column == 3);
  CHECK(bad->offset == 5);
  auto overlong = text::find_invalid_utf8("\xC0\xAF");  // overlong '/'
  REQUIRE(overlong.has_value());
  CHECK(overlong->offset == 0);
  // past the eight-byte ASCII fast path, after a valid two-byte character on the same line:
  // line 2 holds "abcdefghij" + "é" + "12345678" (19 code points) before the stray FF
  auto late = text::find_invalid_utf8("0123456789\nabcdefghij\xC3\xA9" "12345678\xFF" "tail");
  REQUIRE(late.has_value());
  CHECK(late->line == 2);
  CHECK(late->column == 20);
  CHECK(late->offset == 31);
  CHECK_FALSE(text::find_invalid_utf8(std::string(1000, 'a') + "é" + std::string(9, 'b')).has_value());
}

TEST_CASE("text::fold_case folds Unicode case", "[util]") {
  CHECK(text::fold_case("Größe ÄÖÜ") == "größe äöü");
  CHECK(text::fold_case("ΣΊΣΥΦΟΣ") == text::fold_case("σίσυφοσ"));
  CHECK(text::fold_case("PIP Install") == "pip install");
}

TEST_CASE("text::natural_less orders taxonomy ids", "[util]") {
  CHECK(text::natural_less("A.2", "A.10"));
  CHECK_FALSE(text::natural_less("A.10", "A.2"));
  CHECK(text::natural_less("A.1", "A.1.i"));
  CHECK(text::natural_less("A.1.iv", "A.1.v"));
  CHECK(text::natural_less("A.1.ix", "A.1.x"));
  CHECK(text::natural_less("C.9", "C.10"));
  CHECK(text::natural_less("B", "C"));
  CHECK_FALSE(text::natural_less("A.1", "A.1"));
}

TEST_CASE("text::split and trim", "[util]") {
  auto parts = text::split(" a, b ,,c ", ',');
  REQUIRE(parts.size() == 4);
  CHECK(parts[0] == "a");
  CHECK(parts[2].empty());
  CHECK(text::split_nonempty(" a, b ,,c ", ',').size() == 3);
  CHECK(text::edit_distance("code", "cod") == 1);
}

TEST_CASE("text::closest picks the nearest candidate within the distance", "[util]") {
  std::vector<std::string> ids = {"COM", "COM.1", "TOOL.2"};
  CHECK(text::closest("COMM", ids) == "COM");
  CHECK(text::closest("com.1", ids) == "COM.1");    // ASCII case ignored, the candidate's spelling returned
  CHECK(text::closest("TOOL.21", ids) == "TOOL.2");
  CHECK(text::closest("WELL", ids).empty());         // 3 or more edits away
  CHECK(text::closest("WELL", ids, 4) == "COM");     // first of the nearest in candidate order
}

TEST_CASE("text::strip_xml_invalid drops control characters but keeps tab and newline", "[util]") {
  std::string s = "a\x01" "b\tc\nd\x1F" "e\xEF\xBF\xBF";
  CHECK(text::strip_xml_invalid(s) == 3);
  CHECK(s == "ab\tc\nde");
}

TEST_CASE("text::replace_invalid_utf8 puts U+FFFD for each invalid sequence", "[util]") {
  std::string s = "ok \xC0 x\xE2\x82 y\xF0\x9F\x98\x80 \xFF";  // lone lead, truncated 3-byte, valid emoji, 0xFF
  CHECK(text::replace_invalid_utf8(s) == 3);
  CHECK(s == "ok \xEF\xBF\xBD x\xEF\xBF\xBD y\xF0\x9F\x98\x80 \xEF\xBF\xBD");
  CHECK_FALSE(text::find_invalid_utf8(s));
  std::string valid = "caf\xC3\xA9";
  CHECK(text::replace_invalid_utf8(valid) == 0);
  CHECK(valid == "caf\xC3\xA9");
}

TEST_CASE("text::fixed never writes a negative zero", "[util][text]") {
  CHECK(text::fixed(-0.001, 2) == "0.00");
  CHECK(text::fixed(-0.0, 2) == "0.00");
  CHECK(text::fixed(-0.004999, 2) == "0.00");
  CHECK(text::fixed(-0.005001, 2) == "-0.01");
  CHECK(text::fixed(-1.5, 1) == "-1.5");
  CHECK(text::fixed(2.345678, 3) == "2.346");
  CHECK(text::fixed(std::nan(""), 2) == "n/a");
  CHECK(text::fixed(-0.4, 0) == "0");
}

TEST_CASE("text::count_code_points counts every byte but continuation bytes, at any length and offset", "[util]") {
  // One- to four-byte characters (and stray continuation bytes) over several words of eight bytes, counted
  // from every start and to every end against a byte-by-byte count.
  const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z\x80\xBF\xC3\xA9" "bc\xE2\x82\xAC" "defgh\xF0\x9F\x98\x80";
  for (std::size_t from = 0; from <= s.size(); ++from)
    for (std::size_t to = from; to <= s.size(); ++to) {
      std::size_t expected = 0;
      for (std::size_t k = from; k < to; ++k)
        if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) ++expected;
      CHECK(text::count_code_points(std::string_view(s).substr(from, to - from)) == expected);
    }
  CHECK(text::count_code_points("") == 0);
  CHECK(text::count_code_points(std::string(1000, 'x') + "\xC3\xA9") == 1001);
}

TEST_CASE("text::CodePointOffsets counts code points before any byte, across its 4 KiB blocks", "[util]") {
  std::string s;
  for (int i = 0; i < 3000; ++i) s += (i % 3 == 0) ? "é" : "a";  // 1,000 two-byte and 2,000 one-byte: 4,000 bytes
  s += std::string(5000, 'b');
  text::CodePointOffsets at(s);
  for (std::size_t byte : {std::size_t{0}, std::size_t{2}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097}, std::size_t{8191},
                           std::size_t{8192}, s.size(), s.size() + 10}) {
    std::size_t b = std::min(byte, s.size());
    if (b < s.size() && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) continue;  // only at character starts
    CHECK(at.at(byte) == text::count_code_points(std::string_view(s).substr(0, b)));
  }
  CHECK(text::CodePointOffsets("").at(0) == 0);
}

TEST_CASE("text::escape_invalid_utf8 shows the bytes of invalid sequences as \\xnn", "[util]") {
  CHECK(text::escape_invalid_utf8("transcripts/P\xFF.md") == "transcripts/P\\xff.md");
  CHECK(text::escape_invalid_utf8("Zo\xC3\xAB") == "Zo\xC3\xAB");            // valid: unchanged
  CHECK(text::escape_invalid_utf8("L\xC3.csv") == "L\\xc3.csv");              // a lead byte without its tail
  CHECK(text::escape_invalid_utf8("a\x01\xFE\xFF") == "a\\x01\\xfe\\xff");    // controls as escape_controls shows them
  CHECK(text::escape_invalid_utf8("") == "");
}

TEST_CASE("text::terminal_safe draws control characters visibly and never passes them", "[util]") {
  // C0 controls and DEL in caret notation: a title cannot clear the screen or overwrite the line's prefix.
  CHECK(text::terminal_safe("a\x1b[2Jb") == "a^[[2Jb");
  CHECK(text::terminal_safe("x\ry") == "x^My");
  CHECK(text::terminal_safe("\x1b" "c") == "^[c");
  CHECK(text::terminal_safe(std::string_view("\0\x01\x07\x08\x1f\x7f", 6)) == "^@^A^G^H^_^?");
  // a line feed is shown on a single line, kept (with CR LF) where the text is printed as lines
  CHECK(text::terminal_safe("one\ntwo") == "one^Jtwo");
  CHECK(text::terminal_safe("one\ntwo\r\nthree\rfour", true) == "one\ntwo\nthree^Mfour");
  // C1 controls (U+0080-U+009F, here CSI U+009B and NEL U+0085) as <U+XXXX>
  CHECK(text::terminal_safe("a\xC2\x9B" "2Jb\xC2\x85") == "a<U+009B>2Jb<U+0085>");
  // tabs to the next multiple of 8 columns, counted in code points, from the last kept line break
  CHECK(text::terminal_safe("\tx") == "        x");
  CHECK(text::terminal_safe("ab\tc") == "ab      c");
  CHECK(text::terminal_safe("abcdefgh\tc") == "abcdefgh        c");
  CHECK(text::terminal_safe("Größe\tx") == "Größe   x");
  CHECK(text::terminal_safe("^[\tx") == "^[      x");
  CHECK(text::terminal_safe("\x1b\tx") == "^[      x");  // the caret form's two columns count
  CHECK(text::terminal_safe("abc\n\tx", true) == "abc\n        x");
  // invalid UTF-8 byte by byte as \xnn; valid UTF-8 (accents, CJK, emoji) kept as given
  CHECK(text::terminal_safe("P\xFF.md") == "P\\xff.md");
  CHECK(text::terminal_safe("a\xC3(") == "a\\xc3(");
  CHECK(text::terminal_safe("Größe 日本 👩‍💻") == "Größe 日本 👩‍💻");
  CHECK(text::terminal_safe("") == "");
}

TEST_CASE("text::is_nfc: below U+0300 without asking ICU, and exactly as ICU above", "[util]") {
  // U+0300 (CC 80) is the first combining mark: text of code points below it is NFC; after it, ICU decides.
  CHECK(text::is_nfc(std::string(100, 'a')));
  CHECK(text::is_nfc(std::string(40, 'a') + "Zo\xC3\xAB \xC3\x85ngstr\xC3\xB6m" + std::string(40, 'b')));  // Zoë Ångström, NFC
  CHECK_FALSE(text::is_nfc(std::string(40, 'a') + "Zoe\xCC\x88" + std::string(40, 'b')));                    // e + U+0308
  CHECK(text::is_nfc("\xE5\x8C\x97\xE4\xBA\xAC"));                                                           // CJK, NFC
  CHECK_FALSE(text::is_nfc(std::string(16, 'a') + "\xC3"));                                                      // not UTF-8
  CHECK(text::is_nfc(""));
}

TEST_CASE("text::columns aligns by terminal columns: Han and kana take two, combining marks none", "[util]") {
  CHECK(text::display_columns("abc") == 3);
  CHECK(text::display_columns("\xE6\x8E\xA8\xE7\x90\x86") == 4);           // 推理: two wide characters
  CHECK(text::display_columns("Zoe\xCC\x88") == 3);                         // e + U+0308: the mark takes no column
  CHECK(text::display_columns("\xE3\x82\xAD\xE3\x83\xA3\xE3\x83\x83\xE3\x82\xB7\xE3\x83\xA5") == 10);  // キャッシュ
  // A keyword column holding Chinese and ASCII terms: the counts line up under each other.
  const auto table = text::columns({{"term", "hits"}, {"\xE6\x8E\xA8\xE7\x90\x86\xE5\x8A\xA0\xE9\x80\x9F", "4"}, {"cache miss", "12"}},
                                   {false, true}, "");
  CHECK(table == "term        hits\n"
                 "\xE6\x8E\xA8\xE7\x90\x86\xE5\x8A\xA0\xE9\x80\x9F       4\n"
                 "cache miss    12\n");
}
