# Quick start on Debian 12 or 13: `make run` (the main job) and `make test` (the whole suite).
# Both install the Debian packages qualrank needs when they are missing (apt-get, as root or via sudo; without
# either, scripts/install-deps.sh prints the apt-get line to hand to an administrator). `make run` builds only
# the binary it runs; the tests and benchmarks are built by `make test` and `make bench`.

BUILD_DIR ?= build
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
QUALRANK  := $(BUILD_DIR)/qualrank

# Build and runtime dependencies: the same names on Debian 12 (bookworm) and 13 (trixie); install-deps.sh maps
# any name a release spells otherwise. libminizip-dev: Debian 13's xlsxwriter.pc requires minizip.
DEB_BUILD := cmake g++ make pkg-config libboost-program-options-dev libboost-graph-dev libboost-math-dev \
             nlohmann-json3-dev libyaml-cpp-dev libxlsxwriter-dev libminizip-dev libzip-dev libpugixml-dev libicu-dev \
             libssl-dev zlib1g-dev libisal-dev libncurses-dev libcairo2-dev fonts-dejavu-core
# The unit tests (Catch2 v2 on Debian 12, v3 on Debian 13) and the benchmarks (Google Benchmark).
DEB_BENCH := libbenchmark-dev
# make package: CPack's DEB generator asks dpkg-shlibdeps (dpkg-dev) for Depends, and `file` for what to strip.
DEB_PACKAGE := dpkg-dev file
# What the test suite uses to check outputs with independent tools.
DEB_TEST  := catch2 $(DEB_BENCH) libxml2-utils python3-openpyxl python3-yaml chromium libreoffice-calc-nogui poppler-utils unzip tmux jq time \
             bash-completion zsh fish man-db groff-base $(DEB_PACKAGE) \
             texlive-latex-base texlive-latex-recommended texlive-publishers texlive-fonts-recommended lmodern cm-super-minimal

# Fuzzing (make fuzz): Debian's clang and its compiler-rt (libFuzzer, ASan, UBSan runtimes).
DEB_FUZZ  := clang libclang-rt-dev

FUZZ_DIR     ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= taxonomy guideline history transcript standoff labels ranking codebook_table webvtt srt \
                plain_text docx qdc qdpx yaml participants findings periods corpus_store
ASAN_DIR     ?= build-asan

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# make install: the binary, manual pages, shell completions and docs under PREFIX (staged under DESTDIR when set).
PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all deps deps-test deps-bench configure binary build run test bench clean fuzz fuzz-build fuzz-replay install package

all: build

deps:
	@./scripts/install-deps.sh $(DEB_BUILD)

deps-test:
	@./scripts/install-deps.sh $(DEB_BUILD) $(DEB_TEST)

deps-bench:
	@./scripts/install-deps.sh $(DEB_BUILD) $(DEB_BENCH)

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

# Configures again, so that packages installed since the first configure (Catch2, Google Benchmark) are found.
configure:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The binary alone: what `make run` runs.
binary: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target qualrank

# Builds what is installed (the binary, then its manual pages and completions), then installs it. DESTDIR and
# PREFIX reach the shell through the environment, never as text in the command line, so that a quote or $(...)
# in them is part of the path and nothing runs.
install: export QUALRANK_DESTDIR = $(value DESTDIR)
install: export QUALRANK_PREFIX = $(value PREFIX)
install: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target qualrank qualrank_shell_files
	DESTDIR="$$QUALRANK_DESTDIR" cmake --install $(BUILD_DIR) --prefix "$$QUALRANK_PREFIX"

# The Debian package (CPack): $(BUILD_DIR)/qualrank_VERSION_ARCH.deb, Depends from the binary's libraries.
package: deps
	@./scripts/install-deps.sh $(DEB_PACKAGE)
	@$(MAKE) --no-print-directory $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target qualrank qualrank_shell_files
	cd $(BUILD_DIR) && cpack -G DEB

run: deps
	@$(MAKE) --no-print-directory binary
	$(QUALRANK) report -o reports

test: deps-test
	@$(MAKE) --no-print-directory build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: deps-bench
	@$(MAKE) --no-print-directory build
	./bench/run.sh $(BUILD_DIR)

# Builds every libFuzzer target (clang, -fsanitize=fuzzer,address,undefined) in $(FUZZ_DIR) and runs each for
# FUZZ_SECONDS with the limits the README promises (2 s and 512 MiB per input, inputs up to 10 MB), seeded
# from the test fixtures (tests/fuzz/seeds.sh) and the regression corpus. New findings land in
# $(FUZZ_DIR)/findings/<target>/; minimise them into tests/fuzz/regressions/<target>/ (see README).
fuzz-build:
	@./scripts/install-deps.sh $(DEB_BUILD) $(DEB_FUZZ)
	@[ -f $(FUZZ_DIR)/CMakeCache.txt ] || CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) \
	  -DCMAKE_BUILD_TYPE=Fuzz -DQUALRANK_FUZZ=ON -DQUALRANK_BUILD_BENCH=OFF -DQUALRANK_UNITY=OFF \
	  -DCMAKE_C_FLAGS_FUZZ="-O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
	  -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzz_targets

fuzz: fuzz-build
	./tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Replays the regression corpus and the generated hostile inputs under AddressSanitizer and UBSan: the replay
# driver built with g++ -fsanitize=address,undefined in $(ASAN_DIR) (no clang needed). CI runs it after make test.
fuzz-replay: deps-test
	@[ -f $(ASAN_DIR)/CMakeCache.txt ] || cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Asan \
	  -DQUALRANK_BUILD_BENCH=OFF -DQUALRANK_FUZZ_SUBSET=ON -DQUALRANK_UNITY=OFF \
	  -DCMAKE_C_FLAGS_ASAN="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  -DCMAKE_CXX_FLAGS_ASAN="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
	cmake --build $(ASAN_DIR) -j $(JOBS) --target qualrank_fuzz_replay
	REPLAY_LIMITS=0 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ./tests/fuzz/replay.sh $(ASAN_DIR)/tests/fuzz/qualrank_fuzz_replay $(ASAN_DIR)/tests/fuzz/hostile

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_DIR) $(ASAN_DIR)
