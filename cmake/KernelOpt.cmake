#[=======================================================================[.rst:
KernelOpt
---------

Declare GPU (or host) kernels, their variants, a trusted reference and
baselines; get correctness tests, benchmarks and the optimization loop's
targets without writing a harness.

.. code-block:: cmake

  find_package(KernelOpt CONFIG REQUIRED)   # or add_subdirectory / FetchContent
  include(KernelOpt)

.. command:: kernel_opt_add_kernel

  .. code-block:: cmake

    kernel_opt_add_kernel(<kernel>
      ARGS <arg-spec>...
      DIMS <dim>...
      SHAPES <shape>...
      REFERENCE <function>
      REFERENCE_SOURCES <file>...
      [BACKEND cuda|host]
      [QUICK_SHAPES <shape>...]
      [REFERENCE_BACKEND host|cuda]
      [REFERENCE_PRECISION native|f64]
      [REFERENCE_LIBRARIES <library>...]
      [INIT <arg>=<distribution>...]
      [SEEDS <integer>...]
      [TOLERANCE RTOL <number> ATOL <number> [MAX_REL_L2 <number>]]
      [FLOPS <expression>]
      [BYTES <expression>]
      [TARGET <condition>...]
      [MAX_ITERATIONS <n>]
      [RECORDS <directory>]
      [TIMING [MIN_SAMPLES <n>] [MIN_TIME <s>] [MAX_NOISE <fraction>] [MAX_TIME <s>]]
      [TIMEOUT <seconds>])

  ``<kernel>``
    A C identifier of at most 64 characters; names the generated targets and
    tests. No kernel, variant or baseline name has ``kopt`` as a
    ``_``-separated word (generated targets are ``<k>_kopt_<impl>``).

  ``ARGS <arg-spec>...``
    The tensors, in entry-point parameter order. Each is
    ``"<in|out|inout> <name> <dtype>[<axis>,...]"`` with ``<dtype>`` one of
    ``f64 f32 f16 bf16 i32 i64 u8`` and each ``<axis>`` an expression over
    DIMS (``M``, ``M*K``, ``ceil_div(N,128)``). At least one ``out`` or
    ``inout``. Names of ARGS and DIMS become C++ parameter names: not C++
    keywords, not macros GCC and Clang predefine (``unix``, ``linux``), not
    beginning with ``__`` or ``_`` and a capital letter, and not ``stream`` in
    a CUDA kernel (the entry's last parameter).

  ``DIMS <dim>...``
    Scalar sizes, passed as ``int64_t`` after the tensors, in this order.
    Not a name TARGET reads as a measurement (``tflops``, ``gbps``,
    ``time_ns``, ``time_us``, ``time_ms``, ``speedup_vs_...``).

  ``SHAPES <shape>...``
    Problem sizes measured and tested: ``"<dim>=<integer>,..."`` setting every
    DIM exactly once.

  ``QUICK_SHAPES <shape>...``
    Shapes for quick runs (``--kopt_quick``, ``kopt optimize --quick``):
    usually smaller than SHAPES, and need not be among them.
    Default: the first of SHAPES.

  ``REFERENCE <function>``, ``REFERENCE_SOURCES <file>...``
    The trusted implementation, with the same signature as the variants
    (without the stream when it runs on the host).

  ``BACKEND cuda|host``
    Where the variants run. Default ``cuda``. ``host`` variants are plain C++
    on host memory, timed with a steady clock. ``cuda`` needs the CUDA
    language enabled in the declaring directory (or above it) and a KernelOpt
    built with ``KernelOpt_ENABLE_CUDA``; the CUDA Toolkit's targets
    (``CUDA::cudart``) are found there with ``find_package(CUDAToolkit)``
    when the project has not found them itself.

  ``REFERENCE_BACKEND host|cuda``
    Where the reference runs. Default: BACKEND.

  ``REFERENCE_PRECISION native|f64``
    ``f64`` (host reference only): every floating tensor is passed to the
    reference as ``double`` (inputs upcast from the values the variant sees).
    Default ``native``.

  ``REFERENCE_LIBRARIES <library>...``
    Libraries the reference links. A name with ``::`` must be a target where
    the kernel is declared (as for a variant's LIBRARIES).

  ``INIT <arg>=<distribution>...``
    Random fill of an input: ``uniform(lo,hi)``, ``normal(mean,stddev)`` or
    ``randint(lo,hi)``; exactly two bounds, each an expression over DIMS.
    ``randint`` draws the integers from ``ceil(lo)`` to ``ceil(hi) - 1``
    (``hi`` exclusive): the range must not be empty, and both bounds must be
    below 2^62 in magnitude as doubles (at most 4611686018427387647). An
    integer argument (``i32``, ``i64``, ``u8``) takes ``randint`` only
    (``uniform`` and ``normal`` values would be rounded, reaching ``hi``,
    or wrap). Every value the fill can draw must
    be one the argument's dtype holds: ``u8`` 0 to 255, ``i32`` its range,
    ``f16`` -65504 to 65504, ``bf16``, ``f32`` and ``f64`` their finite
    range; a ``normal`` draw lies within 8.58 standard deviations of its
    mean (the most the harness's Box-Muller draw reaches). The configure
    checks all this at every shape (SHAPES and QUICK_SHAPES) where the bounds
    have an exact value (see PARAM_CONSTRAINTS); bounds without one
    (``sqrt(M)``, ``log2(3)``) are checked by the harness at run time, as are
    bounds beyond ``int64`` other than a plain number.
    Default ``uniform(-1,1)`` for floating types, ``randint(-100,100)`` for
    signed and ``randint(0,256)`` for ``u8``.

  ``SEEDS <integer>...``
    A trial per seed, each with fresh inputs; distinct decimal integers
    (``010`` is ten). Default ``1 2 3``.

  ``TOLERANCE RTOL <number> ATOL <number> [MAX_REL_L2 <number>]``
    numpy-allclose semantics, ``|got - ref| <= ATOL + RTOL * |ref|``, for
    floating outputs; integer outputs are always exact. Default per output
    dtype: f64 1e-10, f32 1e-4, f16/bf16 1e-2. ``MAX_REL_L2`` bounds the
    error's L2 norm relative to the reference's; where it is not declared
    (TOLERANCE or not) a floating output gets f64 1e-6, f32 1e-2, f16/bf16
    1e-1: far above rounding, it fails outputs that are mostly wrong yet
    pass elementwise because the reference's values are below ATOL (zeros
    for a softmax over 32000 columns). An all-zero reference is exempt from
    the default bound.

  ``FLOPS <expression>``, ``BYTES <expression>``
    The work model over DIMS: TFLOP/s, GB/s and the roofline.

  ``TARGET <condition>...``
    Stop conditions, ``<expression> <op> <expression>`` with ``<op>`` one of
    ``< <= > >= == !=``, over ``tflops``, ``gbps``, ``time_ns``, ``time_us``,
    ``time_ms``, ``speedup_vs_<impl>`` (``reference``, ``parent`` or a
    baseline), ``pct_of_ceiling.<name>``, ``peak.<name>`` (a ceiling from any
    source), ``ceiling.<name>`` (measured only) and the DIMS. A target holds
    when it holds on every shape (docs/loop.md). A name that could never be
    evaluated stops the configure: ``speedup_vs_<impl>`` where ``<impl>`` is
    not ``reference``, ``parent`` or a baseline of the kernel (variants are
    not timed beside one another), ``tflops`` without FLOPS, ``gbps``
    without BYTES, ``pct_of_ceiling.<name>`` with neither. ``peak.<name>``
    and ``ceiling.<name>`` depend on the ceilings and spec files read at run
    time; an unknown one leaves the target ``unknown``, with the reason.

  ``MAX_ITERATIONS <n>``
    Stop condition: ``kopt status`` says stop once ``<n>`` variants
    (an integer >= 1) have a record (docs/agents.md). Default: no limit.

  ``RECORDS <directory>``
    Where ``kopt record`` keeps ``<kernel>/<variant>.json`` (created when
    missing; an existing file there is an error).
    Default ``${CMAKE_CURRENT_SOURCE_DIR}/records``.

  ``TIMING [MIN_SAMPLES <n>] [MIN_TIME <s>] [MAX_NOISE <fraction>] [MAX_TIME <s>]``
    Benchmark sampling of this kernel: at least ``MIN_SAMPLES`` samples and
    ``MIN_TIME`` seconds of them, then stop once the median's relative noise
    is below ``MAX_NOISE``, or after ``MAX_TIME`` seconds. ``MIN_SAMPLES`` is an
    integer from 1 to 1000000 (the benchmark's cap on samples), ``MIN_TIME``
    below ``MAX_TIME`` (sample time never exceeds the wall time sampling
    runs), ``MAX_NOISE`` a fraction above 0 and below 1, ``MAX_TIME`` a
    number above 0. Defaults: the cache
    variables ``KernelOpt_MIN_SAMPLES`` (10), ``KernelOpt_MIN_TIME`` (0.5),
    ``KernelOpt_MAX_NOISE`` (0.005), ``KernelOpt_BENCH_TIMEOUT`` (15), as
    NVBench (docs/benchmarking.md says why).

  ``TIMEOUT <seconds>``
    CTest timeout of each generated test process, from 2 to 1000000 (``kopt``
    refuses 0, and gives the benchmark 95 % of it in whole seconds).
    Default ``KernelOpt_TEST_TIMEOUT`` (600).

.. command:: kernel_opt_add_variant

  .. code-block:: cmake

    kernel_opt_add_variant(<kernel> <variant>
      SOURCES <file>...
      ENTRY <function>
      [PARENT <variant>]
      [HYPOTHESIS <text> | HYPOTHESIS_FILE <file>]
      [METHODS <method>[=<MACRO>]...]
      [SASS_SIGNATURES <name>=<regex>...]
      [MAX_REGISTERS <count>]
      [NO_SPILLS]
      [NO_LOCAL_MEMORY]
      [EXPECT_FAILURE <regex> | EXPECT_BENCH_FAILURE <regex>]
      [CUDA_ARCHITECTURES <arch>...]
      [MIN_COMPUTE_CAPABILITY <major>.<minor>]
      [DIM_TYPE int64|int|size_t]
      [STREAM LAST|NONE]
      [LIBRARIES <library>...]
      [COMPILE_OPTIONS <option>...]
      [PARAMS <NAME>=<value>,<value>... ...
       [PARAM_CONSTRAINTS <comparison>...]
       [MAX_POINTS <count>]])

  ``<variant>``
    A C identifier of at most 64 characters, unique within the kernel (``v0``,
    ``v1``, ...), and not the name of a point of a family of the kernel
    (``<family>_p<index>``) or one of ``reference``, ``parent`` (names
    ``speedup_vs_reference`` and ``speedup_vs_parent`` of TARGET use),
    ``spec``, ``test``, ``bench`` (names of generated targets); the same holds
    for baselines.
    Declaration order is the loop's order.

  ``SOURCES <file>...``, ``ENTRY <function>``
    The sources, one of which defines ``ENTRY``; its signature is checked at
    compile time against ARGS, DIMS, ``DIM_TYPE`` and ``STREAM``. The kernels
    defined in these files are the variant's own: the static tests judge
    those only, so list a header that defines the variant's kernels (a header
    compiles nothing). The sources are linked into a shared module of their
    own, with every symbol but KernelOpt's entry hidden: variants may
    include the same header with non-static functions, globals,
    ``__device__`` and ``__global__`` code, and each keeps its own copy.
    Relocatable device code (``COMPILE_OPTIONS -rdc=true``) is device-linked
    inside the module. Every entry is a file (not a directory); a ``.cu``
    file needs the CUDA language enabled, whatever the BACKEND.

  ``DIM_TYPE int64|int|size_t``
    The C++ type of the DIMS in the entry's signature: ``std::int64_t``
    (default), ``int`` or ``std::size_t``. With ``int`` every dimension of
    SHAPES and QUICK_SHAPES must be at most 2147483647 (checked at configure
    time).

  ``STREAM LAST|NONE``
    ``LAST`` (default): the entry takes the ``cudaStream_t`` to launch on as
    its last parameter. ``NONE``: it takes none and launches on the default
    stream; KernelOpt makes the default stream wait for its own stream before
    the call and its stream wait for the default stream after, so timing and
    checks bracket the work (docs/benchmarking.md says what that costs).
    BACKEND cuda only. With both, an existing
    ``void launch_foo(const float* a, float* b, int n)`` is an ENTRY as it
    is: ``ENTRY launch_foo DIM_TYPE int STREAM NONE``.

  ``PARENT <variant>``
    The variant this one improves on; declared earlier.

  ``HYPOTHESIS <text>``, ``HYPOTHESIS_FILE <file>``
    What should move, and by how much. Required by the gate for every
    version but the first. Given, it must not be blank (nor the file empty).

  ``METHODS <method>[=<MACRO>]...``
    Techniques claimed, checked in the SASS of the variant's own kernels
    (defined in its SOURCES) by the static tests:
    ``tensor_cores mma_sync wgmma cp_async tma mbarrier vector_load_128
    vector_store_128 ldmatrix stmatrix warp_shuffle smem_tiling fast_math``,
    and (no SASS signature) ``register_blocking online_softmax
    loop_interchange cache_blocking l2_promotion pipeline_depth
    store_coalescing`` (docs/static-checks.md).
    ``<method>=<MACRO>`` makes the method switchable for ablation
    (docs/ablation.md): the variant is compiled with ``-D<MACRO>=1``, and an
    ablated build ``<variant>__no_<method>`` (target
    ``<k>_kopt_<variant>__no_<method>``, not in ALL) with ``<MACRO>=0`` and
    the other switches 1; the sources test it with ``#if <MACRO>``.
    ``kopt ablate`` (target ``ablate-<k>``) measures what each was worth.
    Each method at most once, each macro an identifier used once, not a C++
    keyword and not a name the generated code uses (DIMS, ARGS and PARAMS
    names, ``stream``, ``buffers``, ``dims``, ``KOPT_POINT``,
    ``KOPT_PARAM_*``). A family
    (``PARAMS``) cannot have switches: its METHODS are plain names.
    Default: none.

  ``SASS_SIGNATURES <name>=<regex>...``
    SASS regexes (ECMAScript, searched in each instruction: opcode, modifiers
    and operands) that the variant's machine code must match. A ``<name>``
    that is a METHOD replaces that method's regex for this variant; other
    names are checks of their own. Parentheses and brackets must balance
    (checked at configure time; ``kopt static`` compiles the regex). Default:
    none.

  ``MAX_REGISTERS <count>``
    The static test fails when an own kernel of the variant uses more than
    ``<count>`` (1 to 255) registers per thread. Default: no limit.

  ``NO_SPILLS``, ``NO_LOCAL_MEMORY``
    The static test fails on any local-memory load or store (``STL``/``LDL``:
    register spills or local arrays), or, with ``NO_LOCAL_MEMORY``, also on a
    stack frame or ``LOCAL`` memory. Default: not checked.

  ``EXPECT_FAILURE <regex>``
    The variant is known to be incorrect (a rejected attempt kept on record,
    or a harness test): its correctness test, and its benchmark test
    (``KernelOpt_BENCH_TESTS``), pass only when the variant fails and the
    failure's report matches ``<regex>`` (a CMake regular expression, as
    CTest's ``PASS_REGULAR_EXPRESSION``: it must compile there and hold no
    ``;``; label ``expected-failure``): a pass,
    a crash, a timeout or a sanitizer report fails them. ``<k>.perf`` does
    not time it beside the best (a ``speedup_vs_`` TARGET over it is not
    evaluated).

  ``EXPECT_BENCH_FAILURE <regex>``
    The variant passes its correctness test but its benchmark is known to
    fail (a variant that caches results or works only for the first calls:
    the benchmark's output checks catch what the correctness test cannot):
    its correctness test runs as usual and must pass, its benchmark test
    (``KernelOpt_BENCH_TESTS``) passes only when the benchmark fails with a
    report matching ``<regex>`` (label ``expected-failure``). The loop gates
    it as any variant (its record says why it is rejected). Not with
    ``EXPECT_FAILURE``, which already covers the benchmark.

  ``CUDA_ARCHITECTURES <arch>...``
    The only architectures the variant can be compiled for, written as in
    ``CMAKE_CUDA_ARCHITECTURES`` without ``-real``/``-virtual`` (``90a`` for
    wgmma or TMA). The variant is compiled for the entries of the build's
    architectures that are listed here. Default: any.

  ``MIN_COMPUTE_CAPABILITY <major>.<minor>``
    The oldest GPU the variant runs on (``8.0`` for cp.async or bf16
    ``mma.sync``, ``9.0`` for thread-block clusters); it is compiled for the
    entries of the build's architectures at or above it. With both, no entry
    of CUDA_ARCHITECTURES may be below it. Default: any.

    When none of the build's architectures is left (``CMAKE_CUDA_ARCHITECTURES``,
    ``CUDAARCHS``, ``native``; docs/getting-started.md), the variant is not
    compiled: configure prints one message saying why, and its tests report
    SKIPPED with that reason. At run time a variant, baseline or reference
    whose device code the GPU cannot run (built for ``90a``, run on an
    sm_80) is skipped with the reason as well.

  ``LIBRARIES <library>...``, ``COMPILE_OPTIONS <option>...``
    Link libraries and compile options of this variant's sources. The
    libraries link into the variant's module: a static one must be
    position-independent. A name with ``::`` must be a target; the module is
    made in the directory that declares the kernel, so an imported target of
    the variant's own directory is made global (``IMPORTED_GLOBAL``), and one
    imported elsewhere that the kernel's directory cannot see is an error.
    Other names link as CMake links them (``-l<name>``, a path).

  ``PARAMS <NAME>=<value>,<value>... ...``
    Makes the variant a family of compile-time points (docs/sweeps.md): one
    point per combination of the values (integers), enumerated with the
    first parameter varying slowest and named ``<variant>_p<index>`` by its
    index in that full enumeration. Each point is built from the variant's
    sources with the macros ``KOPT_PARAM_<NAME>=<value>`` and
    ``KOPT_POINT="<point>"``, and can include ``<kernelopt_params.hpp>``
    (``kopt::params::<NAME>``, ``constexpr std::int64_t``). Points are
    shared libraries outside ``ALL``: ``kopt sweep`` builds, tests and times
    them (the tests ``<k>.sweep.<point>`` run one each), a point that does
    not compile or is incorrect is recorded as such. ``kopt select`` (the
    target ``select-<k>``) writes the champion of each shape to
    ``<RECORDS>/<k>/<variant>.selection.json``; from it the configure
    generates the library ``kernelopt::<k>_<variant>_dispatch`` (header
    ``<k>_<variant>_dispatch.hpp``) and ``kernelopt::<k>_dispatch`` (header
    ``<k>_dispatch.hpp``, the last family with a selection), whose function
    has the entry's signature and calls the champion of the shape. The
    dispatch is the variant's own implementation: its correctness test,
    benchmark, record and gate are those of any variant. At least one
    parameter. Names must be distinct identifiers that C++ can take as they
    are (no keyword, predefined macro or reserved name such as ``_Tile``),
    not DIMS, not ``point`` (``kopt::params::point`` is the point's name),
    not beginning with ``KOPT_`` (the macros above) and not a macro of
    ``<cstdint>`` (``SIZE_MAX``), which the header includes; values
    distinct integers, compared as numbers (``-0`` is ``0``, ``007`` is
    ``7``); at most 10000 combinations.

  ``PARAM_CONSTRAINTS <comparison>...``
    Comparisons over PARAMS and DIMS (``BM*BN <= 16384``, ``M % BM == 0``);
    a point is kept when every one holds on every declared shape (SHAPES and
    QUICK_SHAPES). They are evaluated exactly, as rationals of ``int64``
    (``BM/64 >= 1`` holds for ``BM=96``; ``%`` is C's ``fmod``), in order:
    a point is dropped at the first that does not hold, so an earlier one
    guards a later one (``X != 0`` before ``M % X == 0``). A constraint that
    has no exact value at a point it reaches stops the configure, naming
    the point and the shape: a division by zero, a value beyond ``int64``,
    ``sqrt`` or ``log2`` of a value whose result is not rational
    (``sqrt(128)``; ``sqrt(64)`` is 8), ``^`` with an exponent that is not
    an integer. Needs ``PARAMS``.

  ``MAX_POINTS <count>``
    At most this many points (1 to 99999): when more combinations satisfy
    the constraints, the j-th of ``n`` kept is the one at index
    ``floor(j * valid / n)`` of the valid ones in enumeration order
    (deterministic, the first always in). Needs ``PARAMS``.

.. command:: kernel_opt_add_baseline

  .. code-block:: cmake

    kernel_opt_add_baseline(<kernel> <baseline>
      SOURCES <file>...
      ENTRY <function>
      [LIBRARIES <library>...]
      [COMPILE_OPTIONS <option>...]
      [CUDA_ARCHITECTURES <arch>...]
      [MIN_COMPUTE_CAPABILITY <major>.<minor>]
      [DIM_TYPE int64|int|size_t]
      [STREAM LAST|NONE]
      [EXPECT_FAILURE <regex> | EXPECT_BENCH_FAILURE <regex>])

  An implementation to compare against (a vendor library); never gated, but
  checked like a variant: its ``<k>.correct.<baseline>`` test runs every
  shape and seed against the reference (a wrong baseline fails, so no
  speedup table rests on it), and its benchmark checks its outputs.
  ``EXPECT_FAILURE``, ``EXPECT_BENCH_FAILURE``, ``CUDA_ARCHITECTURES``,
  ``MIN_COMPUTE_CAPABILITY``, ``DIM_TYPE`` and ``STREAM`` as for variants (a known-bad baseline kept on
  record).

Testing: ``kernel_opt_add_kernel`` enables testing (as ``enable_testing()``
would) in the directory that declares the kernel and in every directory
above it, so ``ctest`` at the top of the build finds the generated tests
whether or not the project calls ``enable_testing()``; with ``BUILD_TESTING``
OFF (``include(CTest)``) it leaves testing off.

Generated, per kernel ``<k>``: the executables ``<k>_kopt_test`` and
``<k>_kopt_bench``, which load one module per implementation
(``kopt_<k>_<impl>``, beside them); CTest tests ``<k>.correct.<variant>`` and
``<k>.correct.<baseline>`` (labels ``kernel-opt``, ``correctness``,
``<k>``; each runs its host work on ``KernelOpt_REFERENCE_THREADS``
threads, ``--kopt_threads`` and ``OMP_NUM_THREADS``, and declares as many
CTest ``PROCESSORS``), ``<k>.static.<variant>`` for CUDA kernels (labels
``kernel-opt``, ``static``, ``<k>``; they skip when cuobjdump is not found)
and ``<k>.perf`` (labels ``kernel-opt``, ``perf``, ``<k>``); with
``KernelOpt_BENCH_TESTS`` on, ``<k>.bench.<impl>`` per variant and baseline
(labels ``kernel-opt``, ``bench``, ``<k>``; JSON in ``results/``). Tests
that use a GPU declare CTest ``RESOURCE_GROUPS``: correctness ``gpus:1``,
benchmark and perf ``gpus:<KernelOpt_GPU_SLOTS>`` (the whole GPU); with
``KernelOpt_RESOURCE_SPEC=generated`` (default on CMake >= 3.28) the test
``kernelopt.gpus`` writes the resource spec at test time (docs/multi-gpu.md).
The target ``optimize-<k>``; for kernels with a family (``PARAMS``), the
target ``select-<k>`` and the tests ``<k>.sweep.<point>`` (labels
``kernel-opt``, ``sweep``, ``<k>``); when a variant has switchable METHODS, the
target ``ablate-<k>`` and, outside ALL, the ablated modules and the
executables ``<k>_ablate_kopt_test`` / ``<k>_ablate_kopt_bench``
(docs/ablation.md); for CUDA kernels the target ``profile-<k>`` (Nsight
Compute on one launch per implementation and shape, into
``results/profile.json``; docs/profiling.md). Cache variables:
``KernelOpt_CUOBJDUMP``, ``KernelOpt_NCU``, ``KernelOpt_PROFILE_QUICK``,
``KernelOpt_CEILINGS``, ``KernelOpt_SPECS_DIR``, ``KernelOpt_NCU_METRICS``,
``KernelOpt_PROFILE_VARIANT_<k>``, ``KernelOpt_TEST_TIMEOUT``,
``KernelOpt_MIN_SAMPLES``, ``KernelOpt_MIN_TIME``, ``KernelOpt_MAX_NOISE``,
``KernelOpt_BENCH_TIMEOUT``, ``KernelOpt_OPTIMIZE_VARIANT_<k>``,
``KernelOpt_PERF_THRESHOLD`` (0.02), ``KernelOpt_PERF_MISSING`` (skip or fail: what ``<k>.perf`` does
when the gate cannot run; docs/ci-gating.md), ``KernelOpt_GPU_SLOTS`` (4), ``KernelOpt_RESOURCE_SPEC`` (generated, file or
none), ``KernelOpt_BENCH_TESTS`` (OFF), ``KernelOpt_SELECT_MARGIN`` (0.03: the frontier
margin ``select-<k>`` passes to ``kopt select``), ``KernelOpt_REFERENCE_THREADS`` (4;
docs/multi-gpu.md says how it, the GPU slots and ``ctest -j`` interact).

Limits, checked at configure time so that nothing fails later (each refusal
names the function, the kernel and the argument):

- Each keyword at most once per call, the sub-keywords of TOLERANCE and
  TIMING too (CMake's argument parser would keep the last value, or join
  two lists, without a word). No value is empty: a keyword given only an
  empty string ``""`` (an empty quoted variable) or only empty list
  elements, and an empty entry of a list keyword (as in the calls
  with ``SHAPES "M=8" ""`` or with ``SEEDS "1;;2"``), are refused, as is an
  empty argument where a keyword is expected.
- Kernel, variant and baseline names: C identifiers
  (``[A-Za-z_][A-Za-z0-9_]*``) of at most 64 characters; they name
  directories, files, targets and tests. ``kopt`` refuses any other name read
  from a manifest or record.
- SHAPES and QUICK_SHAPES values, and SEEDS: at most 9223372036854775807
  (``int64_t``).
- Each ARGS tensor at each shape: every axis a non-negative integer, and the
  product of its axes times its element size at most 2^48 bytes (256 TiB),
  computed without overflowing ``int64_t``. Axes that are not integer
  expressions at configure time (``n/3``, ``sqrt(n)``) are checked by the
  harness at run time against the same bound.
- FLOPS, BYTES, INIT bounds, TARGET conditions and ARGS axes: no division,
  modulo or ``ceil_div`` by a literal zero.
- Every expression (FLOPS, BYTES, INIT bounds, TARGET, PARAM_CONSTRAINTS,
  ARGS axes) is checked against what the evaluator accepts: ``ceil``,
  ``floor``, ``sqrt`` and ``log2`` take one argument, ``ceil_div`` two,
  ``min`` and ``max`` at least one; nesting is at most 100 levels, counting
  one for the expression and one more for each parenthesis or call, each
  unary ``-`` and each ``^`` exponent (``((M))`` is 3 levels, ``--M`` 3,
  ``2^3^4`` 3).
- TOLERANCE and TIMING numbers: finite and non-negative, below 1e308
  (``1e999``, ``inf``, ``nan`` and ``-1`` are refused), and not below 1e-300
  unless 0 (a double would lose them). SEEDS, TOLERANCE, TIMING and TIMEOUT
  are read as decimals (``08`` is eight, ``010`` ten) and written in one
  canonical form (``8.0``, ``1.0e-3``) into the generated C++ and the
  manifest, so that both hold the same values.
- The cache variables behind the defaults of TIMEOUT and TIMING
  (``KernelOpt_TEST_TIMEOUT``, ``KernelOpt_MIN_SAMPLES``, ``KernelOpt_MIN_TIME``, ``KernelOpt_MAX_NOISE``
  and ``KernelOpt_BENCH_TIMEOUT``) have their limits,
  checked where a declaration takes its default from them; a refusal names
  the cache variable.
- ``KernelOpt_OPTIMIZE_VARIANT_<k>``: empty or a declared variant; the
  entries of ``KernelOpt_PROFILE_VARIANT_<k>``: declared variants and
  baselines. Every generated command is ``VERBATIM``: no value reaches a
  shell.
- HYPOTHESIS and other free text may hold any character: the manifest
  escapes quotes, backslashes and every control character.
#]=======================================================================]

include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.25)

set_property(GLOBAL PROPERTY _KERNEL_OPT_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Errors.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Keywords.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Cuda.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Expr.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Int64.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Rational.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Limits.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Numbers.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Json.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Methods.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Parse.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Static.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Architectures.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Profile.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Resources.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Codegen.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Spec.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Tests.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Ablation.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Manifest.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Sweep.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/kernelopt/Generate.cmake")

set(KernelOpt_TEST_TIMEOUT 600 CACHE STRING "CTest timeout (s) of each generated test process")
set(KernelOpt_MIN_SAMPLES 10 CACHE STRING "Benchmark: minimum samples per measurement")
set(KernelOpt_MIN_TIME 0.5 CACHE STRING "Benchmark: minimum seconds of samples per measurement")
set(KernelOpt_MAX_NOISE 0.005 CACHE STRING "Benchmark: stop once the median's relative noise is below this")
set(KernelOpt_BENCH_TIMEOUT 15 CACHE STRING "Benchmark: give up on the noise bound after this many seconds")
set(KernelOpt_REFERENCE_THREADS 4 CACHE STRING
  "Host threads of each generated correctness test under CTest (its PROCESSORS; docs/multi-gpu.md)")
set(KernelOpt_PERF_THRESHOLD 0.02 CACHE STRING
  "<k>.perf: floor of the SAME band; the measured spread and the board allowance widen it (docs/ci-gating.md)")
set(KernelOpt_PERF_MISSING skip CACHE STRING
  "<k>.perf when the gate cannot run (no record, no GPU, no baseline for this model): skip (exit 77) or fail")
set_property(CACHE KernelOpt_PERF_MISSING PROPERTY STRINGS skip fail)

function(kernel_opt_add_kernel kernel)
  set(fn kernel_opt_add_kernel)
  set(options "")
  set(one_value
    BACKEND
    REFERENCE
    REFERENCE_BACKEND
    REFERENCE_PRECISION
    FLOPS
    BYTES
    RECORDS
    TIMEOUT
    MAX_ITERATIONS
  )
  set(multi_value
    ARGS
    DIMS
    SHAPES
    QUICK_SHAPES
    REFERENCE_SOURCES
    REFERENCE_LIBRARIES
    INIT
    SEEDS
    TOLERANCE
    TARGET
    TIMING
  )
  _kernel_opt_check_keywords(${fn} "${kernel}" 1 ${ARGC} "${options}" "${one_value}" "${multi_value}")
  cmake_parse_arguments(PARSE_ARGV 1 arg "${options}" "${one_value}" "${multi_value}")
  _kernel_opt_missing_name(${fn} "${kernel}" kernel "${kernel}")
  _kernel_opt_check_parsed(${fn} "${kernel}" arg)
  _kernel_opt_check_name(${fn} "${kernel}" "kernel name" "${kernel}")
  get_property(known GLOBAL PROPERTY _KERNEL_OPT_KERNELS)
  if(kernel IN_LIST known)
    _kernel_opt_fail(${fn} ${kernel} "kernel '${kernel}' is already declared")
  endif()
  _kernel_opt_require(${fn} ${kernel} arg ARGS DIMS SHAPES REFERENCE REFERENCE_SOURCES)

  _kernel_opt_choice(${fn} ${kernel} BACKEND "${arg_BACKEND}" cuda "cuda;host" backend)
  _kernel_opt_choice(${fn} ${kernel} REFERENCE_BACKEND "${arg_REFERENCE_BACKEND}" ${backend} "host;cuda" ref_backend)
  _kernel_opt_choice(${fn} ${kernel} REFERENCE_PRECISION "${arg_REFERENCE_PRECISION}" native "native;f64" ref_precision)
  if(backend STREQUAL "host" AND ref_backend STREQUAL "cuda")
    _kernel_opt_fail(${fn} ${kernel} "a host kernel cannot have a CUDA reference"
      KEY REFERENCE_BACKEND "${ref_backend}" KEY BACKEND "${backend}")
  endif()
  if(ref_precision STREQUAL "f64" AND NOT ref_backend STREQUAL "host")
    _kernel_opt_fail(${fn} ${kernel} "REFERENCE_PRECISION f64 needs REFERENCE_BACKEND host"
      KEY REFERENCE_BACKEND "${ref_backend}"
      HINT "an f64 reference runs on the host; a device reference takes the kernel's own types")
  endif()
  if(backend STREQUAL "cuda" OR ref_backend STREQUAL "cuda")
    _kernel_opt_require_cuda(${fn} ${kernel})
  endif()

  _kernel_opt_parse_dims(${fn} ${kernel} "${arg_DIMS}")
  _kernel_opt_parse_args(${fn} ${kernel} "${arg_DIMS}" "${arg_ARGS}" arg_names)
  if(backend STREQUAL "cuda" AND "stream" IN_LIST arg_DIMS)
    _kernel_opt_fail(${fn} ${kernel} "DIMS entry 'stream' is the name of a CUDA entry point's last parameter"
      KEY DIMS "${arg_DIMS}"
      HINT "a CUDA entry point ends with cudaStream_t stream: give the dimension another name")
  elseif(backend STREQUAL "cuda" AND "stream" IN_LIST arg_names)
    _kernel_opt_fail(${fn} ${kernel} "ARGS name 'stream' is the name of a CUDA entry point's last parameter"
      KEY ARGS "${arg_ARGS}"
      HINT "a CUDA entry point ends with cudaStream_t stream: give the argument another name")
  endif()
  _kernel_opt_parse_shapes(${fn} ${kernel} SHAPES "${arg_DIMS}" "${arg_SHAPES}" shapes)
  if(DEFINED arg_QUICK_SHAPES)
    _kernel_opt_parse_shapes(${fn} ${kernel} QUICK_SHAPES "${arg_DIMS}" "${arg_QUICK_SHAPES}" quick)
  else()
    list(GET shapes 0 quick)
  endif()
  _kernel_opt_check_sizes(${fn} ${kernel} SHAPES "${arg_DIMS}" "${arg_names}" "${shapes}")
  _kernel_opt_check_sizes(${fn} ${kernel} QUICK_SHAPES "${arg_DIMS}" "${arg_names}" "${quick}")
  _kernel_opt_parse_inits(${fn} ${kernel} "${arg_DIMS}" "${arg_INIT}" "${shapes};${quick}")
  if(NOT DEFINED arg_SEEDS)
    set(arg_SEEDS 1 2 3)
  endif()
  _kernel_opt_parse_seeds(${fn} ${kernel} "${arg_SEEDS}" seeds)
  _kernel_opt_parse_tolerance(${fn} ${kernel} "${arg_TOLERANCE}" tolerance)
  _kernel_opt_parse_timing(${fn} ${kernel} "${arg_TIMING}" timing)
  foreach(model IN ITEMS FLOPS BYTES)
    if(DEFINED arg_${model})
      _kernel_opt_check_expr(error names "${arg_${model}}" FALSE)
      if(error STREQUAL "")
        foreach(name IN LISTS names)
          if(NOT name IN_LIST arg_DIMS)
            set(error "'${name}' is not one of DIMS")
          endif()
        endforeach()
      endif()
      if(NOT error STREQUAL "")
        _kernel_opt_fail(${fn} ${kernel} "malformed ${model} expression: ${error}"
          KEY ${model} "${arg_${model}}" KEY DIMS "${arg_DIMS}")
      endif()
    endif()
  endforeach()
  foreach(target IN LISTS arg_TARGET)
    _kernel_opt_check_target(${fn} ${kernel} "${arg_DIMS}" "${target}")
  endforeach()
  if(DEFINED arg_MAX_ITERATIONS AND NOT arg_MAX_ITERATIONS MATCHES "^[1-9][0-9]?[0-9]?[0-9]?[0-9]?$")
    _kernel_opt_fail(${fn} ${kernel} "MAX_ITERATIONS '${arg_MAX_ITERATIONS}' is not an integer from 1 to 99999"
      KEY MAX_ITERATIONS "${arg_MAX_ITERATIONS}"
      HINT "the number of variants the loop may record before kopt status says stop")
  endif()
  if(DEFINED arg_TIMEOUT)
    _kernel_opt_parse_timeout(${fn} ${kernel} TRUE "${arg_TIMEOUT}" timeout)
  else()
    _kernel_opt_parse_timeout(${fn} ${kernel} FALSE "${KernelOpt_TEST_TIMEOUT}" timeout)
  endif()
  _kernel_opt_sources(${fn} ${kernel} REFERENCE_SOURCES "${arg_REFERENCE_SOURCES}" ref_sources)
  _kernel_opt_check_libraries(${fn} ${kernel} REFERENCE_LIBRARIES "${arg_REFERENCE_LIBRARIES}")
  _kernel_opt_check_identifier(${fn} ${kernel} REFERENCE "${arg_REFERENCE}")
  _kernel_opt_entry_source(${fn} ${kernel} "the reference" "${arg_REFERENCE}" "${ref_sources}" ref_entry_source)

  set(records "${CMAKE_CURRENT_SOURCE_DIR}/records")
  if(DEFINED arg_RECORDS)
    # Normalized: kopt refuses a records_dir with ".." components.
    cmake_path(ABSOLUTE_PATH arg_RECORDS BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
               OUTPUT_VARIABLE records)
    if(EXISTS "${records}" AND NOT IS_DIRECTORY "${records}")
      _kernel_opt_fail(${fn} ${kernel} "RECORDS '${arg_RECORDS}' is a file, not a directory"
        KEY RECORDS "${records}"
        HINT "RECORDS is the directory kopt writes ${kernel}'s records into (created when missing)")
    endif()
  endif()

  _kernel_opt_enable_testing()
  set_property(GLOBAL APPEND PROPERTY _KERNEL_OPT_KERNELS ${kernel})
  _kernel_opt_set(${kernel} BACKEND "${backend}")
  _kernel_opt_set(${kernel} ARGS "${arg_ARGS}")
  _kernel_opt_set(${kernel} ARG_NAMES "${arg_names}")
  _kernel_opt_set(${kernel} DIMS "${arg_DIMS}")
  _kernel_opt_set(${kernel} SHAPES "${shapes}")
  _kernel_opt_set(${kernel} QUICK_SHAPES "${quick}")
  _kernel_opt_set(${kernel} INIT "${arg_INIT}")
  _kernel_opt_set(${kernel} SEEDS "${seeds}")
  _kernel_opt_set(${kernel} TOLERANCE "${tolerance}")
  _kernel_opt_set(${kernel} TIMING "${timing}")
  _kernel_opt_set(${kernel} FLOPS "${arg_FLOPS}")
  _kernel_opt_set(${kernel} BYTES "${arg_BYTES}")
  _kernel_opt_set(${kernel} TARGETS "${arg_TARGET}")
  _kernel_opt_set(${kernel} MAX_ITERATIONS "${arg_MAX_ITERATIONS}")
  _kernel_opt_set(${kernel} RECORDS "${records}")
  _kernel_opt_set(${kernel} TIMEOUT "${timeout}")
  _kernel_opt_set(${kernel} REFERENCE "${arg_REFERENCE}")
  _kernel_opt_set(${kernel} REFERENCE_SOURCES "${ref_sources}")
  _kernel_opt_set(${kernel} REFERENCE_ENTRY_SOURCE "${ref_entry_source}")
  _kernel_opt_set(${kernel} REFERENCE_BACKEND "${ref_backend}")
  _kernel_opt_set(${kernel} REFERENCE_PRECISION "${ref_precision}")
  _kernel_opt_set(${kernel} REFERENCE_LIBRARIES "${arg_REFERENCE_LIBRARIES}")
  _kernel_opt_set(${kernel} VARIANTS "")
  _kernel_opt_set(${kernel} BASELINES "")
  _kernel_opt_set(${kernel} SOURCE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  _kernel_opt_set(${kernel} BINARY_DIR "${CMAKE_CURRENT_BINARY_DIR}/kernelopt/${kernel}")
  _kernel_opt_set(${kernel} FINALIZED FALSE)
  # Tests and targets are generated once every variant is known: at the end
  # of the directory that declared the kernel.
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _kernel_opt_finalize [[${kernel}]])")
endfunction()

function(kernel_opt_add_variant kernel variant)
  set(options
    NO_SPILLS
    NO_LOCAL_MEMORY
  )
  set(one_value
    ENTRY
    PARENT
    HYPOTHESIS
    HYPOTHESIS_FILE
    EXPECT_FAILURE
    EXPECT_BENCH_FAILURE
    MAX_REGISTERS
    MIN_COMPUTE_CAPABILITY
    DIM_TYPE
    STREAM
    MAX_POINTS
  )
  set(multi_value
    SOURCES
    METHODS
    PARAMS
    PARAM_CONSTRAINTS
    LIBRARIES
    COMPILE_OPTIONS
    SASS_SIGNATURES
    CUDA_ARCHITECTURES
  )
  _kernel_opt_check_keywords(kernel_opt_add_variant "${kernel}" 2 ${ARGC} "${options}" "${one_value}" "${multi_value}")
  cmake_parse_arguments(PARSE_ARGV 2 arg "${options}" "${one_value}" "${multi_value}")
  _kernel_opt_add_impl(kernel_opt_add_variant variant "${kernel}" "${variant}")
endfunction()

function(kernel_opt_add_baseline kernel baseline)
  set(options "")
  set(one_value
    ENTRY
    EXPECT_FAILURE
    EXPECT_BENCH_FAILURE
    MIN_COMPUTE_CAPABILITY
    DIM_TYPE
    STREAM
  )
  set(multi_value
    SOURCES
    LIBRARIES
    COMPILE_OPTIONS
    CUDA_ARCHITECTURES
  )
  _kernel_opt_check_keywords(kernel_opt_add_baseline "${kernel}" 2 ${ARGC} "${options}" "${one_value}" "${multi_value}")
  cmake_parse_arguments(PARSE_ARGV 2 arg "${options}" "${one_value}" "${multi_value}")
  _kernel_opt_add_impl(kernel_opt_add_baseline baseline "${kernel}" "${baseline}")
endfunction()
