# Quick start on Debian 12: `make run` (the main job) and `make test` (the whole suite).
# Both install the Debian packages qualrank needs when they are missing (apt-get, as root or via sudo).

BUILD_DIR ?= build
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
QUALRANK  := $(BUILD_DIR)/qualrank

# Build and runtime dependencies, all from Debian 12.
DEB_BUILD := cmake g++ make pkg-config libboost-program-options-dev libboost-graph-dev libboost-math-dev \
             nlohmann-json3-dev libyaml-cpp-dev libxlsxwriter-dev libzip-dev libpugixml-dev libicu-dev \
             libssl-dev catch2 libbenchmark-dev libncurses-dev
# What the test suite uses to check outputs with independent tools.
DEB_TEST  := libxml2-utils python3-openpyxl chromium libreoffice-calc-nogui unzip tmux jq

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps deps-test build run test bench clean

all: build

deps:
	@./scripts/install-deps.sh $(DEB_BUILD)

deps-test:
	@./scripts/install-deps.sh $(DEB_BUILD) $(DEB_TEST)

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

build: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: deps
	@$(MAKE) --no-print-directory build
	$(QUALRANK) report -o reports

test: deps-test
	@$(MAKE) --no-print-directory build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: deps
	@$(MAKE) --no-print-directory build
	./bench/run.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
