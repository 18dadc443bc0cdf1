#!/usr/bin/env bash
# Records the bundled study's taxonomy version 2 ("after interviews") with qualrank's own CLI: the extensions
# the interviewees proposed, each with provenance (participant + transcript FILE:LINE of the turn), accepted
# into version 2, and one weak proposal rejected. This is how codebooks/llm-frameworks.history.yaml was made.
#
# usage: scripts/example-history.sh QUALRANK_BINARY WORKSPACE
# WORKSPACE must be a copy of the bundled study without a history file; the script refuses to overwrite one.
set -euo pipefail
Q=${1:?qualrank binary}
WS=${2:?workspace folder}
[[ ! -e "$WS/codebooks/llm-frameworks.history.yaml" ]] || { echo "$WS already has a history" >&2; exit 1; }

P=(--author alice --date 2025-04-22)      # proposals recorded by the first coder after the last interview
D=(--author bob --date 2025-04-29)        # decided in the team's review
t() { echo "transcripts/$1"; }
propose() { "$Q" -q -C "$WS" taxonomy propose "$@" "${P[@]}"; }

# A.2: guidance on how parameter settings interact (training and serving).
propose add --parent A.2 --id A.2.iii --name "Parameter Interaction Guidance" \
  --definition "How settings that act together interact, e.g. micro-batch size, gradient accumulation, number of devices and learning rate in training, or tensor-parallel degree, batch size and context length in serving, when the documentation describes each setting separately." \
  --keywords "effective batch,settings interact" \
  --by U06 --source "$(t U06.md:45)" --by U09 --source "$(t U09.md:48)" \
  --rationale "Two participants, one training and one serving, could not find out how settings combine; A.2.i (documentation quality) and A.2.ii (feature boundaries) each cover only part of it. Coded A.2.i and A.2.ii meanwhile."

# B.5: intelligent utilities, and one sub-theme per utility named in the interviews.
propose add --parent B --id B.5 --name "Intelligent Utilities" \
  --definition "Requirements for tools built into the framework that help practitioners configure, observe, compare, reuse and control LLM work: configuration recommendation, training visualization, experiment tracking, performance profiling, reusable model zoos and behaviour control of LLM inference." \
  --inclusion "The speaker asks the framework to assist, automate or observe work around a model rather than for a new modelling capability." \
  --exclusion "Missing functionality of the framework itself (B.2); debugging and logging facilities (B.3.iii)." \
  --by U05 --source "$(t U05.md:77)" --by U07 --source "$(t U07.md:62)" --by U10 --source "$(t U10.md:45)" \
  --by D03 --source "$(t D03.md:78)" --by D06 --source "$(t D06.md:51)" \
  --rationale "Five participants, users and developers, asked for assistance tools that no requirement theme covers: B.2 is about functionality of the framework itself, these are utilities around it. Coded B.2.i, B.2.v, B.2.vi and B.3.iii meanwhile."
propose add --parent B.5 --id B.5.i --name "Configuration Recommendation" \
  --definition "The framework recommends a configuration (parallel layout, micro-batch size, recomputation) from the model size and the cluster, instead of manual sweeps of small jobs." \
  --keywords "recommend a configuration,configuration recommendation" \
  --by U10 --source "$(t U10.md:45)" --by D06 --source "$(t D06.md:51)" \
  --rationale "U10 runs a sweep for every parallel layout and D06's team recommends configurations by hand in issues."
propose add --parent B.5 --id B.5.ii --name "Training Visualization" \
  --definition "Built-in views of training state next to the loss: memory, gradient norms and throughput per layer and per rank." \
  --keywords "training visualization" \
  --by U07 --source "$(t U07.md:62)" \
  --rationale "U07 logs memory per rank by hand and reads loss curves in an external tool."
propose add --parent B.5 --id B.5.iii --name "Experiment Tracking" \
  --definition "Recording and comparing runs (configurations, metrics, artefacts) inside the framework, without gluing external tools together." \
  --keywords "experiment tracking,compare runs" \
  --by U07 --source "$(t U07.md:62)" \
  --rationale "U07 wants to compare runs without combining three tools."
propose add --parent B.5 --id B.5.iv --name "Performance Profiling" \
  --definition "Profiling that attributes step time to compute, communication and pipeline bubble, per stage, without a custom profiler session." \
  --keywords "performance profiler,step time" \
  --by U10 --source "$(t U10.md:45)" --by D06 --source "$(t D06.md:51)" \
  --rationale "Both ask for a profiler that says where the step time goes; today that takes a custom Nsight session."
propose add --parent B.5 --id B.5.v --name "Reusable Model Zoos" \
  --definition "Curated models with tested recipes, configurations and evaluation results that people can start from, not just weights." \
  --keywords "model zoo" \
  --by D03 --source "$(t D03.md:78)" \
  --rationale "D03 reports user requests for reusable starting points with recipes and evaluations."
propose add --parent B.5 --id B.5.vi --name "Behaviour Control of LLM Inference" \
  --definition "Constraints on generation that the inference engine enforces: output format and length, allowed sources, stop conditions, grammars and guardrails." \
  --keywords "guardrails,grammar,stop conditions" \
  --by U05 --source "$(t U05.md:77)" --by D03 --source "$(t D03.md:78)" \
  --rationale "U05 wants the engine, not the prompt, to enforce format, length and sources; D03's users ask for the same."

# Developers' requirement additions under the B themes they belong to.
propose add --parent B.1 --id B.1.iv --name "Operator Portability Across Hardware Generations" \
  --definition "Operators written once against an abstraction that carries over to the next hardware generation with re-tuning, not a rewrite." \
  --keywords "next generation,new chip,rewrite operators" \
  --by D04 --source "$(t D04.md:78)" \
  --rationale "B.1.i covers adapting to new hardware at all; D04 asks for operators that stay portable across chip generations, a requirement of its own. Coded B.1.i meanwhile."
propose add --parent B.3 --id B.3.v --name "Automated Memory-Alignment Enforcement" \
  --definition "The framework checks or re-aligns memory at the boundary of every kernel, so that kernels can rely on alignment without each kernel author enforcing it." \
  --keywords "alignment,aligned pointers" \
  --by D02 --source "$(t D02.md:69)" \
  --rationale "Placed under B.3 (code reliability), not B.2: D02 asks for a safeguard that removes a class of crashes (misaligned views reaching kernels), a reliability guarantee enforced by the framework, not a new capability or a performance gain. Coded B.2.iii meanwhile."
propose add --parent B.2 --id B.2.vii --name "Quantization and Inference Support" \
  --definition "Quantization, evaluation of quantized models and export to inference engines as first-class, supported paths of the framework." \
  --keywords "quantization-aware,export to the serving engine" \
  --by U11 --source "$(t U11.md:74)" --by D07 --source "$(t D07.md:77)" \
  --rationale "The study's published data lists this seventh B.2 sub-theme although the paper's text does not count it (../shared/reference/README.md); two participants asked for it independently. Coded B.2.iii meanwhile."
propose add --parent B.2 --id B.2.viii --name "High-Level APIs for Core Operations" \
  --definition "High-level APIs for core operations such as matmul that handle sharded and transposed layouts, so that users do not hand-write reshapes and transposes for every parallel layout." \
  --keywords "matmul,high-level api" \
  --by D05 --source "$(t D05.md:66)" \
  --rationale "D05 traces a recurring class of wrong-shape bugs to hand-written plumbing around matmul; B.2.i (API requirements) is about interfaces in general. Coded B.2.i meanwhile."

# C.11: failures at LLM scale.
propose add --parent C --id C.11 --name "Failures at LLM Scale" \
  --definition "Bugs that appear only at LLM scale, on long runs, large or changing clusters and heterogeneous hardware: recovery from checkpoints, consistency across hardware backends, and concurrency in the runtime." \
  --exclusion "Failures that occur at any scale (C.1 to C.10)." \
  --by D01 --source "$(t D01.md:68)" --by U10 --source "$(t U10.md:59)" --by D04 --source "$(t D04.md:61)" \
  --by D07 --source "$(t D07.md:60)" --by U08 --source "$(t U08.md:59)" --by D08 --source "$(t D08.md:66)" \
  --rationale "Six participants named bug classes that the ten bug themes scatter over C.1, C.3, C.4, C.6 and C.9, and asked for categories of their own."
propose add --parent C.11 --id C.11.i --name "Checkpoint Recovery Errors" \
  --definition "Resuming from a saved checkpoint fails although the checkpoint itself is intact, e.g. after a change of world size or parallel layout." \
  --exclusion "Checkpoints that cannot be read or converted because of their format or version (C.6.v)." \
  --keywords "checkpoint recovery,resume from checkpoint" \
  --by D01 --source "$(t D01.md:68)" --by U10 --source "$(t U10.md:59)" \
  --rationale "D01 and U10: the checkpoint is fine, the recovery path breaks after a topology change. Coded C.6.v meanwhile."
propose add --parent C.11 --id C.11.ii --name "Runtime Inconsistencies Across Hardware Backends" \
  --definition "The same program gives different results, or fails, on different hardware backends or chip generations (GPU and NPU, CUDA and ROCm, GPU and TPU)." \
  --keywords "different results,backends" \
  --by D04 --source "$(t D04.md:61)" --by D07 --source "$(t D07.md:60)" --by U08 --source "$(t U08.md:59)" \
  --rationale "Named by two developers as their biggest bug class and seen by a user as drift in long runs. Coded C.1.v, C.4.i and C.4.ii meanwhile."
propose add --parent C.11 --id C.11.iii --name "Thread-Safety and Race Conditions" \
  --definition "Races and deadlocks between runtime threads, host callbacks and data-loader workers, or between hosts entering collectives in a different order." \
  --keywords "thread-safety,thread safety" \
  --by D08 --source "$(t D08.md:66)" \
  --rationale "D08: these end up under runtime errors (C.9.v) or distributed bugs (C.3.iii) today. Coded C.3.iii and C.9.v meanwhile."

# A weak proposal, rejected below.
propose add --parent A --id A.5 --name "Slow Jupyter Notebooks" \
  --definition "Notebooks that become slow after a few runs." \
  --by U02 --source "$(t U02.md:42)" \
  --rationale "U02 asks for a separate theme for slow Jupyter notebooks, the thing U02 complains about most."

# The review: accept the extensions into version 2, reject the notebook theme.
first=1
for e in E0001 E0002 E0003 E0004 E0005 E0006 E0007 E0008 E0009 E0010 E0011 E0012 E0013 E0014 E0015 E0016; do
  if [[ $first == 1 ]]; then
    "$Q" -q -C "$WS" taxonomy accept "$e" --into-version 2 --version-name "after interviews" "${D[@]}"
    first=0
  else
    "$Q" -q -C "$WS" taxonomy accept "$e" --into-version 2 "${D[@]}"
  fi
done
"$Q" -q -C "$WS" taxonomy reject E0017 "${D[@]}" \
  --reason "The complaint is memory held across cells until the kernel restarts, which A.3.ii (Resource Efficiency and Optimization Management) covers; a notebook front end is one participant's environment, not a framework theme."
rm -f "$WS/codebooks/llm-frameworks.history.yaml.lock"
"$Q" -C "$WS" taxonomy log | tail -1
