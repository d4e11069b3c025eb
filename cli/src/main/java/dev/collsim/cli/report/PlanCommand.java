package dev.collsim.cli.report;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.EnvOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.plan.GroupPlacement;
import dev.collsim.reports.plan.JobBuilder;
import dev.collsim.reports.plan.ModelShape;
import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.Recompute;
import dev.collsim.reports.plan.ScalingSearch;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.topology.io.MissingNvlinks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code collsim plan}: the collectives of one training step, their predicted times on the cluster, the step time,
 * tokens per second, scaling efficiency, and the fewest GPUs reaching a target throughput.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict one training step of a model on a cluster: every collective, step time, tokens/s,"
            + " memory per GPU.",
            "Every collective the step issues (tensor, sequence, pipeline, data and expert parallelism; ZeRO/FSDP) is"
            + " predicted on the GPUs its group really spans; then exposed communication after overlap, step time,"
            + " tokens/s and scaling efficiency.",
            "Formulas: Shoeybi et al. 2019 (TP), Korthikanti et al. 2022 (SP), Narayanan et al. 2021 (PP),"
            + " Rajbhandari et al. 2020 (ZeRO), Lepikhin et al. 2020 / Fedus et al. 2021 (MoE), Kaplan et al. 2020"
            + " and PaLM App. B (6N + 12 L h s FLOPs per token; --mfu is end-to-end, --kernel-efficiency compute-only)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "2:usage error (bad option value or layout)", "3:invalid cluster file"})
public final class PlanCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;
    /** The job defaults, from their one home (also a report spec's plan defaults). */
    private static final JobBuilder DEFAULTS = new JobBuilder();

    @Mixin
    private ClusterOption cluster;

    @Option(names = "--model", paramLabel = "NAME", description = "a published model (shape and experts, with"
            + " sources): gpt3-175b, llama3-8b, llama3-70b, llama3-405b, mixtral-8x7b, mixtral-8x22b, deepseek-v3")
    private String model;
    @Option(names = "--params", paramLabel = "N", description = "parameter count, e.g. 70B, 1.3B,"
            + " 350M (all experts included for MoE); needed unless --model is given")
    private String params;
    @Option(names = "--ffn-hidden", paramLabel = "D", description = "MLP width d_ff (default: 4 x hidden)")
    private Integer ffnHidden;
    @Option(names = "--swiglu", description = "gated MLP (SwiGLU): three h x d_ff matrices instead of two")
    private boolean swiglu;
    @Option(names = "--moe-ffn-hidden", paramLabel = "D", description = "d_ff of one routed expert (default: the"
            + " MLP width; smaller for fine-grained experts)")
    private Integer moeFfnHidden;
    @Option(names = "--first-dense-layers", paramLabel = "K", description = "leading dense layers before MoE layers"
            + " (DeepSeek-V3: 3)")
    private int firstDenseLayers;
    @Option(names = "--hidden", paramLabel = "H", description = "hidden size (default: published shape or"
            + " Kaplan's 12 L h^2 with h = 128 L)")
    private Integer hidden;
    @Option(names = "--layers", paramLabel = "L", description = "transformer layers (default: as --hidden)")
    private Integer layers;
    @Option(names = "--dp", paramLabel = "D", description = "data-parallel degree (default: fill the cluster,"
            + " GPUs / (tp x pp x cp))")
    private Integer dp;
    @Option(names = "--tp", paramLabel = "T", description = "tensor-parallel degree: divides the hidden size and,"
            + " for a --model or a published --params, its attention heads and KV heads (as Megatron-Core requires), and"
            + " divides the GPUs per host or is a multiple of it (TP across whole hosts) (default: ${DEFAULT-VALUE})")
    private int tp = DEFAULTS.tp;
    @Option(names = "--pp", paramLabel = "P", description = "pipeline stages (default: ${DEFAULT-VALUE})")
    private int pp = DEFAULTS.pp;
    @Option(names = "--cp", paramLabel = "C", description = "context-parallel degree (ring attention; divides"
            + " --seq-len; GPUs = dp x tp x pp x cp) (default: ${DEFAULT-VALUE})")
    private int cp = DEFAULTS.cp;
    @Option(names = "--virtual-stages", paramLabel = "V",
            description = "interleaved stages per GPU (default: ${DEFAULT-VALUE})")
    private int virtualStages = DEFAULTS.virtualStages;
    @Option(names = "--ep", paramLabel = "E", description = "expert-parallel degree, divides dp x cp")
    private int ep = DEFAULTS.ep;
    @Option(names = "--experts", paramLabel = "N", description = "experts per MoE layer (0 = dense)")
    private int experts = DEFAULTS.experts;
    @Option(names = "--topk", paramLabel = "K", description = "experts per token (default: the preset's, else 2)")
    private Integer topk = DEFAULTS.topk;
    @Option(names = "--moe-every", paramLabel = "K", description = "one MoE layer every K layers")
    private int moeEvery = DEFAULTS.moeEvery;
    @Option(names = "--capacity-factor", paramLabel = "F", description = "MoE capacity factor")
    private double capacityFactor = DEFAULTS.capacityFactor;
    @Option(names = "--zero", paramLabel = "STAGE", description = "ZeRO stage 0, 1, 2 or 3")
    private int zero = DEFAULTS.zero;
    @Option(names = "--fsdp", description = "FSDP full sharding (= ZeRO-3)")
    private boolean fsdp;
    @Option(names = "--sequence-parallel", description = "Megatron sequence parallelism (TP AllReduce becomes"
            + " ReduceScatter + AllGather)")
    private boolean sequenceParallel;
    @Option(names = "--grad-reduce-dtype", paramLabel = "TYPE", description = "gradient reduction and buffer type:"
            + " fp32 (default, Megatron-LM's accumulate_allreduce_grads_in_fp32), bf16, fp16")
    private String gradReduceDtype = DEFAULTS.gradReduceDtype;
    @Option(names = "--compute-precision", paramLabel = "P", description = "number format of the peak FLOP/s: bf16"
            + " (default) or fp8 (Transformer Engine FP8 GEMMs; the datasheet's dense FP8 peak)")
    private String computePrecision = DEFAULTS.computePrecision;
    @Option(names = "--param-bytes", paramLabel = "B", description = "bytes per parameter"
            + " gathered by ZeRO/FSDP (default: ${DEFAULT-VALUE})")
    private int paramBytes = DEFAULTS.paramBytes;
    @Option(names = "--act-bytes", paramLabel = "B", description = "bytes per activation"
            + " element (default: ${DEFAULT-VALUE})")
    private int actBytes = DEFAULTS.actBytes;
    @Option(names = "--seq-len", paramLabel = "S", description = "sequence length (default: ${DEFAULT-VALUE})")
    private int seqLen = DEFAULTS.seqLen;
    @Option(names = "--micro-batch", paramLabel = "B", description = "micro-batch (default: ${DEFAULT-VALUE})")
    private int microBatch = DEFAULTS.microBatch;
    @Option(names = "--global-batch", paramLabel = "G", description = "sequences per step (default: dp x b x"
            + " (pp > 1 ? 4 pp : 1))")
    private Integer globalBatch;
    @Option(names = "--step-compute-ms", paramLabel = "X", description = "compute time of one step per GPU, ms")
    private Double stepComputeMs;
    @Option(names = "--mfu", paramLabel = "M", description = "end-to-end model FLOPs utilisation in (0, 1] (PaLM,"
            + " Chowdhery et al. 2022, App. B): step = model FLOPs / (GPUs x peak x M); communication and bubble are"
            + " inside it, not added")
    private Double mfu;
    @Option(names = "--kernel-efficiency", paramLabel = "E", description = "compute-only efficiency in (0, 1]:"
            + " compute = hardware FLOPs / (GPUs x peak x E), then bubble and exposed communication are added"
            + " (default: 0.4 when neither --mfu nor --step-compute-ms is given)")
    private Double kernelEfficiency;
    @Option(names = "--recompute", paramLabel = "POLICY", defaultValue = "selective", description = "activation"
            + " recomputation: none, selective (attention scores; what FlashAttention does) or full (whole layer)"
            + " (default: selective)")
    private String recompute;
    @Option(names = "--peak-tflops", paramLabel = "T", description = "peak dense TFLOP/s per GPU (default: from the"
            + " GPU model's datasheet)")
    private Double peakTflops;
    @Option(names = "--overlap", paramLabel = "F", description = "fraction of the data-parallel gradient reduction"
            + " (behind backward) and ZeRO parameter gathers (behind the next forward) that may hide behind compute"
            + " (default: ${DEFAULT-VALUE}, as Megatron-LM's --overlap-grad-reduce --overlap-param-gather)")
    private double overlap = DEFAULTS.overlap;
    @Option(names = "--order", paramLabel = "ORDER", defaultValue = "tp-pp-dp", description = "rank order: tp-pp-dp"
            + " (default) or tp-dp-pp")
    private String order;
    @Option(names = "--calibration", paramLabel = "FILE|none|auto", description = "performance parameters: a "
            + "'collsim calibrate' profile or parameters file, or none for the bare model; auto (default): the shipped "
            + "profile of the cluster's class (configs/calibration/auto), else the defaults")
    private Path calibration;

    @Option(names = "--env", paramLabel = "NCCL_X=V", mapFallbackValue = EnvOption.NO_VALUE, description = "NCCL setting for every collective (repeatable)")
    private Map<String, String> env = new LinkedHashMap<>();
    @Option(names = "--target-tokens-per-s", paramLabel = "T", description = "find the fewest GPUs (growing dp,"
            + " same global batch) that reach this throughput")
    private Double target;
    @Option(names = "--max-gpus", paramLabel = "N", defaultValue = "4096", description = "largest GPU count the"
            + " target search tries (default: 4096)")
    private int maxGpus;

    @Override
    public Integer call() throws InputException {
        PrintWriter out = spec.commandLine().getOut();
        ClusterSource base = cluster.source();
        NcclSettings nccl = EnvOption.settings(env);
        nccl.passedOverWarning().ifPresent(w -> spec.commandLine().getErr().println("collsim: warning: --env " + w));
        ModelShape.implausiblySmall(params).ifPresent(w -> spec.commandLine().getErr().println(
                "collsim plan: warning: --params " + w));
        RankOrder rankOrder;
        TrainingJob job;
        try {
            rankOrder = RankOrder.parse(order);
            job = job(base);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
        double peak = peakTflops == null ? Double.NaN : peakTflops * 1e12;
        // the band of the NCCL nodes the job spans, as predict (ProfileClass.ofRanks); --target plans larger clusters
        CalibrationOption.Resolved perf = CalibrationOption.resolve(calibration, "--calibration", base.topology(),
                target != null ? List.of() : GroupPlacement.jobGpus(base.topology(), job), spec.commandLine().getErr());
        out.println("# " + perf.line());
        NcclPredictor predictor = new NcclPredictor(NcclVersion.DEFAULT, perf.parameters());
        predictor.networkNote(base.topology()).ifPresent(n -> out.println("# network: " + n));
        StepPlanner planner = new StepPlanner(predictor, nccl, rankOrder);
        StepPlan plan;
        try {
            plan = planner.plan(base.topology(), job, peak);
        } catch (InvalidRequestException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
        MissingNvlinks.warning(base.topology()).ifPresent(w -> out.println("# warning: " + w));
        PlanText.print(out, plan, base.topology(), cluster.sizeText(base.topology()), cluster.ofTrays());
        if (target != null) {
            if (base.spec() == null) {
                throw new UserError("--target-tokens-per-s needs a cluster built from a host type (a collsim"
                        + " YAML cluster, a config name or a catalog name); '" + cluster.value()
                        + "' is a machine file read as it is: -c " + cluster.value() + ":1 takes its host as one",
                        ExitCodes.USAGE);
            }
            ScalingSearch search = new ScalingSearch(planner, h -> ClusterEditor.build(base.spec(),
                    ClusterEdits.NONE.withHosts(h)).withNetworkClass(base.topology().networkClass()), base.gpusPerHost(), peak);
            Optional<StepPlan> hit = search.smallestReaching(job, target, maxGpus);
            PlanText.target(out, target, hit, maxGpus, job, base.gpusPerHost(), cluster.ofTrays());
        }
        return ExitCodes.OK;
    }

    /**
     * @param base the cluster (its GPUs give the default --dp)
     * @return the job the options describe
     * @throws UserError (usage) for a value the builder would take for "not given"
     * @throws IllegalArgumentException for a value or combination the builder refuses, naming the option
     */
    private TrainingJob job(ClusterSource base) {
        if (firstDenseLayers < 0) {
            throw new UserError("--first-dense-layers " + firstDenseLayers + ": allowed: 0 or more", ExitCodes.USAGE);
        }
        JobBuilder b = new JobBuilder();
        b.model = model;
        b.params = params;
        b.ffnHidden = given("--ffn-hidden", ffnHidden);
        b.gated = swiglu;
        b.moeFfnHidden = given("--moe-ffn-hidden", moeFfnHidden);
        b.firstDenseLayers = firstDenseLayers;
        b.hidden = given("--hidden", hidden);
        b.layers = given("--layers", layers);
        b.gradReduceDtype = gradReduceDtype;
        b.computePrecision = computePrecision;
        b.paramBytes = paramBytes;
        b.actBytes = actBytes;
        b.tp = tp;
        b.pp = pp;
        b.cp = cp;
        b.dp = dp != null ? given("--dp", dp) : b.clusterFillingDp(base.topology().gpus().size());
        b.virtualStages = virtualStages;
        b.ep = ep;
        b.experts = experts;
        b.topk = topk;
        b.moeEvery = moeEvery;
        b.capacityFactor = capacityFactor;
        b.zero = zero;
        b.fsdp = fsdp;
        b.sequenceParallel = sequenceParallel;
        b.seqLen = seqLen;
        b.microBatch = microBatch;
        b.globalBatch = given("--global-batch", globalBatch);
        b.stepComputeMs = stepComputeMs == null ? Double.NaN : stepComputeMs;
        b.mfu = mfu == null ? Double.NaN : mfu;
        b.kernelEfficiency = kernelEfficiency == null ? Double.NaN : kernelEfficiency;
        b.recompute = parseRecompute(recompute);
        b.overlap = overlap;
        return b.build();
    }

    /**
     * @param option the option's name
     * @param value  its value, null when not given
     * @return the value, or 0 (the builder's "not given") when null
     * @throws UserError (usage) for a given value below 1, which the builder would take for "not given"
     */
    private static int given(String option, Integer value) {
        if (value != null && value < 1) {
            throw new UserError(option + " " + value + ": allowed: a whole number >= 1 (leave the option out for its"
                    + " default)", ExitCodes.USAGE);
        }
        return value == null ? 0 : value;
    }

    private static Recompute parseRecompute(String text) {
        try {
            return Recompute.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--recompute: " + e.getMessage(), e);
        }
    }
}
