package dev.collsim.simulator.perf;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.topology.NetworkClass;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every parameter of collsim's performance prediction that NCCL's own model does not have, in one place, so
 * calibration can replace it. Serialised by Jackson with exactly these field names (stable: renaming one is a
 * breaking change of calibration profiles). Per-generation lists are ordered Volta, Ampere, Hopper, Blackwell
 * (NCCL's compute-capability index, {@link GpuGeneration}). This record is immutable.
 *
 * <p>Defaults and their sources:
 * <ul>
 *   <li>{@code launchOverheadUs} 1.5: per-call cost on the GPUs' critical path that NCCL's latency table leaves out.
 *       The host's launch is not in it: nccl-tests does not wait between iterations, so the host's per-call work
 *       overlaps the GPUs' ({@code simulator.HostLaunch}). Measured as the floor less NCCL's latency for the call
 *       (NCCL 2.30.7 {@code tuning.cc} baseLat + hwLat per step; collsim's fill and data term are nearly nothing
 *       there), median per file, over every healthy one-host file (no network in the call) whose floor the host
 *       cannot set: floor above G x 6.0 us, G the GPUs of one process, 6.0 the highest per-GPU host rate measured
 *       (EPYC 7V12, {@code HostLaunch#HOST_PER_GPU_US}'s javadoc; G x 4.7 admitted the -g 8 thanos and ND A100 v4
 *       runs at 4.9 and 5.6 us per GPU, host-bound). The floor is the minimum time at the sizes up to 1 KiB (a file
 *       without such sizes: its smallest size): a straggling iteration only adds time. Per file, us: 8x A100 SXM one
 *       process per GPU +2.90 (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt:78, 17.90 against Ring/LL
 *       6.6 + 14 x 0.6 = 15.0); 8x RTX PRO 6000 PCIe +3.29 and -3.12 at 4 KiB against 6.6 + 14 x 1.0, median +0.09
 *       (A-allreduce-1x8xRTXPRO6000-wrx90-...-nccl2.27.txt:20, two groups); 2x L40S PCIe -g 2 -2.64 (LL128, 15.16
 *       against Tree 14.0 + 2 x 1.9) and +4.72 (Simple, 21.12 against 8.4 + 2 x 4.0), median +1.04
 *       (A-allreduce-1x2xL40S-...-nccl2.29.txt; its LL runs, 8.9-9.2 us, are below 2 x 6.0); 4x L40S -g 4 Simple
 *       +6.25 (A-allreduce-1x4xL40S-...-nccl2.29.txt:343, 38.65 against 8.4 + 2 x 3 x 4.0 = 32.4; its other runs,
 *       16.9-23.0 us, are below 4 x 6.0); 2x H200 NVLink one process per GPU +1.54 (9.34 us at 32 B against 6.6 +
 *       2 x 0.6, data/device/h200x2-2proc-2026-11-29/run4/2proc-all_reduce.rank0.txt): median of the 5 files 1.54,
 *       rounded to 1.5; leaving out any one file gives 1.29-2.22 (every file, in or out: docs/launch-overhead.md;
 *       validation {@code LaunchOverheadDerivationTest} works it out again). Not used: one-host files the host may set (-g 8 Azure ND A100 v4 and ND H100 v5, OCI
 *       BM.GPU4.8, dkh and thanos -g 8; 4x RTX 4090, 4x RTX PRO 6000 and 4x GB200 -g 4; 2x RTX 2080 Ti -g 2 at
 *       9.8-11.6 us), files whose smallest size is 1 MiB or more (the data term is not small there), AlltoAll (no
 *       tuning.cc latency), and every multi-host file: its floor also holds the fabric's own per-hop latency
 *       (switch tiers, cables, VMs), which NCCL's constant (5.0 us a Tree hop on the network) does not know, so its
 *       excess belongs to the network class, not to the GPU's call. On the InfiniBand and Slingshot files that meet
 *       the host rule the excess runs from -2.9 to +30 us (2x8 and 4x8 H100 xe9680 -0.43, 2x2 H100 DGX -0.33, 2x4
 *       GH200 Olivia +1.41, 2x8 H100 Nebius +4.72, 2x8 B200 Lambda +10.29, 2x4 H100 16GB +11.67, 2x4 GH200 CSCS
 *       -2.86 and +30.05): a hop cost per cluster, not one launch cost. The former 1.0 was the median of seven
 *       files, four of them multi-host; the value before, 2.3, took the median of the sizes up to 1 KiB as the
 *       floor; 6.5, the floor of one H200 alone (../shared/device/nccl-tests-all_reduce-1gpu.txt), is the host's
 *       rate with no GPU work to hide it under.</li>
 *   <li>{@code latencyScale} 1.0: multiplies NCCL's latency term (NCCL 2.30.7 {@code tuning.cc} tables as is).</li>
 *   <li>{@code bwEfficiencyLL/LL128/Simple} 1.0 / 0.96 / 0.98: achieved fraction of NCCL's link-limited
 *       bandwidth at large sizes. Simple: DGX A100 plateaus at 231.6 GB/s busbw against NCCL's 240
 *       (0.965) and 8x H100 NVLS at 478.9 against 476 (1.006); 0.98 splits them
 *       (../shared/data/A-allreduce-8xA100-azure-ndv4..., A-allreduce-8xH100-azure-ndv5-nvls...). LL128:
 *       0.96 assumes LL128 reaches a little below Simple. LL: NCCL's 50% factor already covers it.</li>
 *   <li>{@code perChannelCapLL/LL128/Simple}: the most bus bandwidth one runtime channel (one CTA) moves, GB/s.
 *       This is what makes NCCL_MAX_CTAS and the per-call channel reduction matter. It applies to Ring, Tree,
 *       CollNet and PAT (and point-to-point) channels, not to NVLS/NVLSTree; on several nodes collsim raises it to
 *       NCCL's own bus bandwidth over the default runtime channel count where that is higher (4x8 H100 measured
 *       22.9 GB/s per channel; {@link PerformanceModel}). Simple, Volta/Ampere: NCCL's own per-channel Tree
 *       caps for one host (26.5, 24.0; NCCL 2.30.7 {@code tuning.cc}); Hopper and Blackwell: 20.7,
 *       measured on 2x H200 (NV18, NCCL 2.28.3, NCCL_NVLS_ENABLE=0, AllReduce Ring/Simple) in
 *       {@code data/device/h200x2-2026-11-29/collsim-sweep-NCCL_MAX_NCHANNELS.txt}, out-of-place busbw at 8 GiB
 *       (8589934592 B) where the per-channel limit binds: NCCL_MAX_NCHANNELS=2 41.72 GB/s / 2 = 20.86,
 *       NCCL_MAX_NCHANNELS=4 82.21 / 4 = 20.55, mean (20.86 + 20.55) / 2 = 20.7 GB/s (NCCL's 38.7 predicted
 *       77.3/154.6 GB/s there, 46-49% too fast). Blackwell takes the Hopper figure, not NCCL's Tree cap 70 (which
 *       bound nothing): a channel is one CTA (at most NCCL_MAX_NTHREADS = 640 threads, NCCL 2.27.3 and 2.30.7
 *       {@code src/include/device.h}) running the same Simple copy loop, whose rate is set by the bytes its threads
 *       keep in flight over the memory round trip, not by the link, and the SMs run at about the H200's clock (boost
 *       B200 1.98 GHz, GB200 2.11 GHz: hmc-tech.com/gpus/nvidia-b200-vs-nvidia-gb200, a third-party listing; H200
 *       1980 MHz measured, {@code data/device/h200-nvidia-smi-clocks.txt}). The Blackwell NVLink plateaus on NCCL's
 *       32 runtime channels agree with 32 x 20.7 = 662.4 GB/s busbw, where NCCL's NVLink figure x 0.98 gives 707:
 *       GB200 tray Ring AllReduce 663.3 (OCI, A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt line 25) and
 *       679.6 (Azure, A-allreduce-4xGB200-azure-ndgb200v6-ring-nccl2.25-busbw-table.txt), GB200 AllToAll 662.3 on 8
 *       ranks (OCI line 65) and 667.3 on 4 ranks in place (line 56; out of place 615.3 carries the self copy NCCL
 *       skips in place, NCCL 2.27.3 {@code enqueue.cc scheduleP2pTasksToPlan}); 8x B300 Ring 695 (NVIDIA/nccl#2140,
 *       channels not stated) is 4.9 % above. LL128 NCCL's Ring/LL128 caps (20, -, 36.7, 40), LL half of
 *       NCCL's Tree caps (13.25, 12.0, 19.35, 35.0) (NCCL 2.30.7 {@code tuning.cc} per-channel tables, reused
 *       here as CTA limits: a collsim assumption to be calibrated; no LL/LL128 channel sweep measured yet).
 *       LL128 Ampere 7.0, fitted: NCCL's per-channel 20 is its figure per ring-graph channel (12 x 20 = 240 GB/s on
 *       8x A100, v2.18.5-1 {@code tuning.cc} line 179), but the runtime has 24 channels, and the one-host 8x A100
 *       LL128 sizes move 117-179 GB/s busbw, not NCCL's 0.92 x 240: thanos {@code mpirun} (A-allreduce-1x8xA100-80GB-
 *       sxm-thanos-g8-vs-mpirun-sweep.txt run 2, 4-16 MiB, time less 40.6 us: 179, 163, 170 GB/s, mean 170.7 / 24 =
 *       7.11; docs/single-host-guesses.md section 4), ABCI 1x8 NCCL 2.8 {@code mpirun} 154 and 117 GB/s per added
 *       size at 2-8 MiB, dkh and Azure ND A100 v4 ({@code -g 8}) 122-139. Value: the best of 6.0, 6.5, 6.8, 7.0, 7.1,
 *       7.2, 7.3, 7.5, 8.5 for the sum of the bare-model medians at >= 1 MiB of the five one-host A100 AllReduce
 *       runs with LL128 sizes (thanos run 2, ABCI 1x4 and 1x8, dkh, ND A100 v4; 51.3 at 7.0, 62.1 at 20); leaving
 *       any one out, the best is 6.8-7.0. Binds where channels x 7.0 is under the rest of the bound: a one-host
 *       8x A100 LL128 call; on several nodes the cap is at least NCCL's busBw over its default channels (below),
 *       and it bound the ABCI HDR NCCL 2.8 runs' Ring/LL128 (docs/single-host-guesses.md section 4).</li>
 *   <li>{@code pipelineFillChunks} 1.0: pipeline fill charged as this many chunk transfers at the per-channel
 *       rate; the chunk is the protocol's chunk (NCCL 2.30.7 {@code enqueue.cc calcCollChunking}, §3.3) or the
 *       per-channel per-rank slice when smaller. For NVLS and NVLSTree AllReduce it is the number of kernel loop
 *       iterations of fill, one iteration's data at the call's algorithm bandwidth ({@link NvlsLoop}).</li>
 *   <li>{@code p2pBaseLatencyUs} 8.4: base latency of a point-to-point operation (NCCL has none; Ring/Simple
 *       base latency of NCCL 2.30.7 {@code tuning.cc} used as a stand-in).</li>
 *   <li>{@code localCopyGBps} 2100: one rank only copies its buffer; about 2.1 TB/s algbw at 512 MiB on one H200
 *       (the project's design notes §5, nccl-tests AllReduce 255.7 us at 512 MiB). The copy reads and writes device
 *       memory, so for another GPU the rate is scaled by its memory bandwidth over the H200's 4.8 TB/s
 *       ({@code LocalCopy.scale}).</li>
 *   <li>{@code netStepUs} 10: one network step of NCCL's proxy ({@link NetTransport}); a slot of a connection comes
 *       back after two, and the connection's NCCL_STEPS slots overlap, so it binds through the bytes in flight.
 *       Consistent with NCCL's own network step latency for Simple (14 us, NCCL 2.30.7 {@code tuning.cc}
 *       hwLat[NET]) for the data pass and the credit's return; NVIDIA/nccl#2409 measured a degraded 400G RoCE run
 *       at 128 KiB sends / 10-12 us with 8 in flight, a slot cycle of about 80 us. Not fitted to collsim's datasets;
 *       it does not bind on the public InfiniBand/RoCE files at NCCL's default NCCL_BUFFSIZE.</li>
 *   <li>{@code perChannelCapNvls}: the most bus bandwidth one NVLS channel (one CTA driving NVLink SHARP) moves,
 *       GB/s, so that NCCL_NVLS_NCHANNELS and NCCL_MAX_CTAS matter for NVLS. Lower bounds from measured plateaus
 *       over NCCL's default NVLS channels: Hopper 32.1, the loop-corrected rate of the Hopper fit below (NCCL's
 *       476 x 0.98 x 1.10 = 513.1 GB/s busbw) on 16 channels, so that it does not bind there (the raw plateau,
 *       478.9 GB/s at 8 GiB, holds 512 loop iterations and gave 29.93 before the loop was modelled), Blackwell
 *       895.5 GB/s on
 *       24 channels = 37.31 (64 GB200 GPUs of one NVL72 clique, A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-
 *       mnnvl-nccl2.27.txt:33, titled "2 hosts" but run on 64 ranks: its busbw/algbw is 2 x 63 / 64); Volta and Ampere have no NVLS (Hopper's value, unused). At NCCL's default channel counts they do not
 *       bind; with fewer channels the NVLS rate falls in proportion (a collsim assumption, calibratable).</li>
 *   <li>{@code nvlsBwScale} 1.0, 1.0, 1.10, 1.0: a factor on NCCL's own NVLS/NVLSTree bandwidth (after
 *       {@code bwEfficiencySimple}), for what NCCL's model gets wrong on a platform and calibration can fit
 *       ({@code --fit NVLS_BW_SCALE}). Hopper 1.10, fitted with {@code nvlsLoopUs} (below): the 8x H100 NVLS data
 *       rate between the loop's iterations is 476 x 0.98 x 1.10 = 513.1 GB/s busbw (293.2 GB/s algbw). Blackwell
 *       1, checked against every public Blackwell NVLS plateau (AllReduce busbw at 8 GiB, measured / collsim at scale 1): 8x B200 830+ / 808.5 = 1.027
 *       (NVIDIA/nccl#1807), 8x B300 845 / 808.5 = 1.045 (NVIDIA/nccl#2140), 64 GPUs of a GB200 NVL72 891.6 / 883.6 =
 *       1.009 (OCI, A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt:33), a full NVL72 rack of 72
 *       GPUs 834.6 / 883.6 = 0.945 (CoreWeave, coreweave/nccl-tests#43; NCCL 2.26.2 ran it on 32 NVLS channels, the
 *       others 24: that gap is {@link NvlsChannelShare}). A scale fitted on three of them (their mean
 *       ratio) predicts the fourth with 2.7, 5.2, 0.4 and 8.0 % error (mean 4.1 %) against 2.7, 4.5, 0.9 and 5.5 %
 *       (mean 3.4 %) at 1: left out in turn, no fitted scale beats 1. The 8-GPU figures were 15-17 % above NCCL's model
 *       because NCCL's search caps one-node NVLS at its speed array's ceiling ({@link NvlsSpeedCeiling}), not
 *       because of a Blackwell rate; the former "2 trays 895.5 vs 704" was a 64-rank run read as 8 ranks. Applied
 *       on NVLSTree between 3 or more nodes too: per added byte at 32-64 MiB the three 4 x 8 H100 runs over
 *       InfiniBand move at the scaled rate (Voltage Park 206.5 us, XE9680 203.1, gj-aion 210.4; collsim 205 with the
 *       scale, 225.8 without), so gj-aion's 4 and 8 x 8 excess is additive, not a slower rate (docs/accuracy.md,
 *       NVLSTree between Hopper nodes); dropping the scale there (tried: NCCL 2.28.3's N4 cap, 45.5 GB/s a head) fitted
 *       gj-aion and missed the other two clusters by +8 to +10 % at 32-128 MiB.</li>
 *   <li>{@code nvlsLoopUs} 5.0, 5.0, 5.0, 0: the fixed cost of one loop iteration of NCCL's NVLS/NVLSTree AllReduce
 *       kernel ({@link NvlsLoop}; every iteration waits for all ranks through the switch). Hopper 5.0 us and the
 *       Hopper {@code nvlsBwScale} 1.10 are one least-squares fit (relative error, every point at >= 1 MiB, grid
 *       loop 3.2-6.0 us x scale 1.071-1.137, {@code perChannelCapNvls} moved with the scale so that it never binds
 *       at NCCL's 16 channels) on the seven H100 NVLS/NVLSTree AllReduce tables the rest of the model explains
 *       within 10 %: A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt:25,
 *       A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt:13 (from 8 MiB: its 67-69 us floor at 1-4 MiB is the
 *       run's own, {@link NvlsTreePipeline}), A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt:24,
 *       D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt:16 and :25 and
 *       A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt:34 and :110. Their mean RMS error goes
 *       4.89 -> 4.46 %; median error at >= 1 MiB before -> after: ND H100 v5 1.4 -> 1.8 (RMS 5.1 -> 3.4), talos
 *       3.1 -> 1.4, nccltests290 0.8 -> 1.0, p5 0.0 -> 0.3 and 0.2 -> 0.3, xe9680 2x8 2.0 -> 2.1, 4x8 2.3 -> 2.3;
 *       not in the fit, Nebius 2x8 (A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt) 5.0 -> 4.7. Leave-one-out (fit
 *       on six, the seventh held out): the six-table fit is 5.0 / 1.10 again for five of them and 5.5 / 1.11
 *       (nccltests290 held out: 1.1 %) or 5.5 / 1.12 (xe9680 2x8: 2.7 %) for the others, every held-out median
 *       within 3 %. Each single-node table alone gives about 6 us / 302 GB/s algbw (ND H100 v5 6.02 / 304.2, talos
 *       5.95 / 301.7, with NCCL's 26.9 us fixed part); the 2-node NVLSTree tables pull both down. The former
 *       3.2 us / 1.071 (fitted on ND H100 v5 alone) left the 8-32 MiB points of both single-node tables 7-10 % fast;
 *       a refit then (6.0 us / 1.134) had kept the cap at 31.2, which bound and made the plateaus slow. Volta and
 *       Ampere have no NVLS (Hopper's value, unused). Blackwell 0 until measured: of the public Blackwell NVLS runs
 *       only the 72-GPU CoreWeave rack (coreweave/nccl-tests#43) has sizes below 4 GiB, 512 MiB - 8 GiB, where
 *       collsim is 27 % fast at 512 MiB and 5 % at 8 GiB: a cost of about 500 us that does not grow with the loop
 *       count (about 11 loops at 512 MiB, 85 at 8 GiB), so not this per-loop cost; one file cannot separate it. The fill of a call below one loop is one
 *       channel's piece since NCCL 2.18-2.19 stride their channels ({@link NvlsLoop#fillBytes}; merged after this fit:
 *       of ND H100 v5's points only 1 MiB moves).</li>
 *   <li>{@code netClasses}: the cost of each network transport other than InfiniBand ({@link NetClassProfile};
 *       InfiniBand is the reference: its step is {@code netStepUs}, no added hop latency, the full line rate).
 *       Defaults and their sources are in {@link NetClassDefaults}. A profile file may give some classes only; the
 *       others keep their defaults.</li>
 *   <li>{@code bwEfficiencyNet}, {@code bwEfficiencyNvlink}, {@code bwEfficiencyPcie} 1.0: achieved fraction of
 *       the link-limited bandwidth per link class, on top of the protocol's efficiency, so that a calibration
 *       fitted on one kind of cluster moves only the traffic of its links. The class is NCCL's
 *       ({@link HardwareClass}, NCCL 2.30.7 {@code src/graph/tuning.cc}): a call between NCCL nodes is NET (its
 *       links' bandwidth is NCCL's inter-node figure, and the node NIC bound), a call on one node NVLINK when its
 *       ring graph's intra-host path is NVL (NVSwitch or direct NVLink), PCI otherwise. Point-to-point calls apply
 *       NET to their bytes between nodes and the intra-node class to the rest ({@link P2pModel}). 1 is the bare
 *       model: collsim has no measurement that sets them apart from the protocol efficiencies; the shipped
 *       network-class profiles fit {@code bwEfficiencyNet} (calibration {@code FitLadder}).</li>
 * </ul>
 *
 * @param launchOverheadUs    per-call fixed overhead, microseconds, >= 0
 * @param latencyScale        factor on NCCL's latency term, > 0
 * @param bwEfficiencyLL      achieved fraction of NCCL's LL bandwidth, in (0, 1.5]
 * @param bwEfficiencyLL128   achieved fraction of NCCL's LL128 bandwidth, in (0, 1.5]
 * @param bwEfficiencySimple  achieved fraction of NCCL's Simple bandwidth (also NVLS, CollNet, PAT), in (0, 1.5]
 * @param perChannelCapLL     LL bus bandwidth per runtime channel by generation, GB/s (4 values)
 * @param perChannelCapLL128  LL128 bus bandwidth per runtime channel by generation, GB/s (4 values)
 * @param perChannelCapSimple Simple bus bandwidth per runtime channel by generation, GB/s (4 values)
 * @param pipelineFillChunks  pipeline fill in chunks, >= 0
 * @param p2pBaseLatencyUs    point-to-point base latency, microseconds, >= 0
 * @param localCopyGBps       device-local copy rate for one rank, GB/s (> 0)
 * @param netStepUs           one network step of NCCL's proxy, microseconds, >= 0 (0: no limit)
 * @param perChannelCapNvls   NVLS/NVLSTree bus bandwidth per NVLS channel by generation, GB/s (4 values)
 * @param nvlsBwScale         collsim's correction factor on NCCL's NVLS/NVLSTree bandwidth by generation (4 values)
 * @param netClasses          cost of each non-InfiniBand network transport class (missing classes: defaults)
 * @param nvlsLoopUs          fixed cost of one loop iteration of NCCL's NVLS/NVLSTree AllReduce kernel by generation,
 *                            microseconds, in [0, 10000] (4 values; {@link NvlsLoop})
 * @param bwEfficiencyNet     achieved fraction of the link-limited bandwidth of calls between nodes, in (0, 1.5]
 * @param bwEfficiencyNvlink  achieved fraction of the link-limited bandwidth of one-node NVLink calls, in (0, 1.5]
 * @param bwEfficiencyPcie    achieved fraction of the link-limited bandwidth of one-node PCIe calls, in (0, 1.5]
 */
@JsonPropertyOrder({"launchOverheadUs", "latencyScale", "bwEfficiencyLL", "bwEfficiencyLL128",
    "bwEfficiencySimple", "perChannelCapLL", "perChannelCapLL128", "perChannelCapSimple", "pipelineFillChunks",
    "p2pBaseLatencyUs", "localCopyGBps", "netStepUs", "perChannelCapNvls", "nvlsBwScale", "netClasses",
    "nvlsLoopUs", "bwEfficiencyNet", "bwEfficiencyNvlink", "bwEfficiencyPcie"})
public record PerformanceParameters(
        @JsonProperty("launchOverheadUs") double launchOverheadUs,
        @JsonProperty("latencyScale") double latencyScale,
        @JsonProperty("bwEfficiencyLL") double bwEfficiencyLL,
        @JsonProperty("bwEfficiencyLL128") double bwEfficiencyLL128,
        @JsonProperty("bwEfficiencySimple") double bwEfficiencySimple,
        @JsonProperty("perChannelCapLL") List<Double> perChannelCapLL,
        @JsonProperty("perChannelCapLL128") List<Double> perChannelCapLL128,
        @JsonProperty("perChannelCapSimple") List<Double> perChannelCapSimple,
        @JsonProperty("pipelineFillChunks") double pipelineFillChunks,
        @JsonProperty("p2pBaseLatencyUs") double p2pBaseLatencyUs,
        @JsonProperty("localCopyGBps") double localCopyGBps,
        @JsonProperty("netStepUs") double netStepUs,
        @JsonProperty("perChannelCapNvls") List<Double> perChannelCapNvls,
        @JsonProperty("nvlsBwScale") List<Double> nvlsBwScale,
        @JsonProperty("netClasses") Map<NetworkClass, NetClassProfile> netClasses,
        @JsonProperty("nvlsLoopUs") List<Double> nvlsLoopUs,
        @JsonProperty("bwEfficiencyNet") double bwEfficiencyNet,
        @JsonProperty("bwEfficiencyNvlink") double bwEfficiencyNvlink,
        @JsonProperty("bwEfficiencyPcie") double bwEfficiencyPcie) {

    /** The documented defaults. */
    public static final PerformanceParameters DEFAULTS = new PerformanceParameters(1.5, 1.0, 1.0, 0.96, 0.98,
            List.of(13.25, 12.0, 19.35, 35.0), List.of(20.0, 7.0, 36.7, 40.0), List.of(26.5, 24.0, 20.7, 20.7),
            1.0, 8.4, 2100.0, NetClassDefaults.IB_STEP_US, List.of(29.93, 29.93, 32.1, 37.31),
            List.of(1.0, 1.0, 1.10, 1.0), NetClassDefaults.PROFILES, List.of(5.0, 5.0, 5.0, 0.0), 1.0, 1.0, 1.0);

    /** @throws IllegalArgumentException naming the field, its value and the allowed range */
    public PerformanceParameters {
        check("launchOverheadUs", launchOverheadUs, 0, 1e6);
        check("latencyScale", latencyScale, 1e-6, 100);
        check("bwEfficiencyLL", bwEfficiencyLL, 1e-6, 1.5);
        check("bwEfficiencyLL128", bwEfficiencyLL128, 1e-6, 1.5);
        check("bwEfficiencySimple", bwEfficiencySimple, 1e-6, 1.5);
        check("pipelineFillChunks", pipelineFillChunks, 0, 1000);
        check("p2pBaseLatencyUs", p2pBaseLatencyUs, 0, 1e6);
        check("localCopyGBps", localCopyGBps, 1e-3, 1e6);
        check("netStepUs", netStepUs, 0, 1e4);
        check("bwEfficiencyNet", bwEfficiencyNet, 1e-6, 1.5);
        check("bwEfficiencyNvlink", bwEfficiencyNvlink, 1e-6, 1.5);
        check("bwEfficiencyPcie", bwEfficiencyPcie, 1e-6, 1.5);
        perChannelCapLL = caps("perChannelCapLL", perChannelCapLL);
        perChannelCapLL128 = caps("perChannelCapLL128", perChannelCapLL128);
        perChannelCapSimple = caps("perChannelCapSimple", perChannelCapSimple);
        perChannelCapNvls = caps("perChannelCapNvls", perChannelCapNvls);
        nvlsBwScale = caps("nvlsBwScale", nvlsBwScale);
        netClasses = netClasses(netClasses);
        nvlsLoopUs = loopCosts(nvlsLoopUs);
    }

    private static Map<NetworkClass, NetClassProfile> netClasses(Map<NetworkClass, NetClassProfile> given) {
        Map<NetworkClass, NetClassProfile> m = new EnumMap<>(NetClassDefaults.PROFILES);
        if (given != null) {
            given.forEach((k, v) -> {
                if (k == null || k == NetworkClass.INFINIBAND || v == null) {
                    throw new IllegalArgumentException("netClasses: " + k + " is not allowed; give profiles for "
                            + "ROCE, EFA, TCPX, TCPXO, SOCKET, SLINGSHOT (InfiniBand is the reference: netStepUs)");
                }
                m.put(k, v.orStreamOf(NetClassDefaults.PROFILES.get(k)));
            });
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * @param c network class
     * @return its profile; for InfiniBand (netStepUs, no added hop latency, the full line rate)
     */
    public NetClassProfile netProfile(NetworkClass c) {
        return c == NetworkClass.INFINIBAND ? new NetClassProfile(netStepUs, 0, 1) : netClasses.get(c);
    }

    /**
     * @param c network class
     * @return its TCP stream rate, GB/s ({@link NetClassProfile#streamGBps}); 0 for a class without one
     */
    public double streamGBps(NetworkClass c) {
        return netProfile(c).streamGBps();
    }

    /**
     * @param c          a network class other than InfiniBand
     * @param streamGBps its TCP stream rate, GB/s, in (0, 10000]
     * @return a copy with that class's stream rate (calibration fits the socket class's)
     * @throws IllegalArgumentException for InfiniBand or a rate out of range
     */
    public PerformanceParameters withStreamGBps(NetworkClass c, double streamGBps) {
        NetClassProfile o = netProfile(c);
        if (c == NetworkClass.INFINIBAND || !(streamGBps > 0)) {
            throw new IllegalArgumentException("streamGBps = " + streamGBps + " for " + c + "; allowed: a class other"
                    + " than InfiniBand, a rate > 0");
        }
        Map<NetworkClass, NetClassProfile> m = new EnumMap<>(netClasses);
        m.put(c, new NetClassProfile(o.stepUs(), o.hopLatencyUs(), o.bwFraction(), streamGBps));
        return new PerformanceParameters(launchOverheadUs, latencyScale, bwEfficiencyLL, bwEfficiencyLL128,
                bwEfficiencySimple, perChannelCapLL, perChannelCapLL128, perChannelCapSimple, pipelineFillChunks,
                p2pBaseLatencyUs, localCopyGBps, netStepUs, perChannelCapNvls, nvlsBwScale, m, nvlsLoopUs,
                bwEfficiencyNet, bwEfficiencyNvlink, bwEfficiencyPcie);
    }

    private static void check(String name, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException(name + " = " + v + " is out of range; allowed [" + lo + ", " + hi + "]");
        }
    }

    private static List<Double> caps(String name, List<Double> v) {
        Objects.requireNonNull(v, name);
        if (v.size() != GpuGeneration.values().length || v.stream().anyMatch(x -> x == null || !(x > 0))) {
            throw new IllegalArgumentException(name + " = " + v + " is invalid; allowed: 4 positive GB/s values"
                    + " for Volta, Ampere, Hopper, Blackwell");
        }
        return List.copyOf(v);
    }

    private static List<Double> loopCosts(List<Double> v) {
        Objects.requireNonNull(v, "nvlsLoopUs");
        if (v.size() != GpuGeneration.values().length || v.stream().anyMatch(x -> x == null || !(x >= 0 && x <= 1e4))) {
            throw new IllegalArgumentException("nvlsLoopUs = " + v + " is invalid; allowed: 4 values in [0, 10000] us"
                    + " for Volta, Ampere, Hopper, Blackwell");
        }
        return List.copyOf(v);
    }

    /** @return the cost of one NVLS/NVLSTree kernel loop iteration for a generation, microseconds */
    public double nvlsLoopUs(GpuGeneration g) {
        return nvlsLoopUs.get(g.ordinal());
    }

    /** @return the efficiency for a protocol */
    public double bwEfficiency(Protocol p) {
        return switch (p) {
            case LL -> bwEfficiencyLL;
            case LL128 -> bwEfficiencyLL128;
            case SIMPLE -> bwEfficiencySimple;
        };
    }

    /** @return the efficiency of a link class (NET: between nodes; NVLINK, PCI: on one node) */
    public double bwEfficiency(HardwareClass c) {
        return switch (c) {
            case NET -> bwEfficiencyNet;
            case NVLINK -> bwEfficiencyNvlink;
            case PCI -> bwEfficiencyPcie;
        };
    }

    /** @return collsim's factor on NCCL's NVLS/NVLSTree bandwidth for a generation */
    public double nvlsBwScale(GpuGeneration g) {
        return nvlsBwScale.get(g.ordinal());
    }

    /** @return the NVLS/NVLSTree bus bandwidth cap per NVLS channel for a generation, GB/s */
    public double perChannelCapNvls(GpuGeneration g) {
        return perChannelCapNvls.get(g.ordinal());
    }

    /** @return the per-runtime-channel bus bandwidth cap for a protocol and generation, GB/s */
    public double perChannelCap(Protocol p, GpuGeneration g) {
        List<Double> l = switch (p) {
            case LL -> perChannelCapLL;
            case LL128 -> perChannelCapLL128;
            case SIMPLE -> perChannelCapSimple;
        };
        return l.get(g.ordinal());
    }
}
