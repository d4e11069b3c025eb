package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;

/**
 * NCCL's NVLS tuning of a communicator, before NCCL_NVLS_NCHANNELS and the CTA limits: the NVLS channel count
 * (NVLS and NVLSTree), the NVLS chunk and the largest NVLSTree chunk.
 *
 * <p>NCCL 2.30.7 ({@code src/transport/nvls.cc ncclNvlsTuning}, first in 2.30.3): channels 16 on sm90, on sm100 24 on
 * one node and 32 on several (older releases: {@link #defaultChannels}); chunk NCCL_NVLS_CHUNKSIZE = 128 KiB; then,
 * on sm100 (the communicator's minimum) with
 * several nodes, {@code ncclNvlsTreeSm100Tuning} by nNodes, the smallest ranks per node (ppn) and the smallest
 * GPU-NIC path bandwidth of the ranks' local NICs ({@code comm->minNetBw}, {@code ncclTopoGetMinNetBw}):
 * <pre>
 *   2 nodes, NIC &gt;= 48 GB/s:     32 channels, tree max 128 KiB; ppn &lt;= 4: chunk and tree max 256 KiB;
 *                                 else ppn &gt;= 16, or ppn &lt;= 8 with a GPU-NIC path of PXB or better and NIC &lt; 96:
 *                                 tree max 64 KiB
 *   else NIC &gt;= 96 GB/s:         ppn &lt;= 8: 24 channels, chunk and tree max 256 KiB;
 *                                 else 32 channels, tree max 128 KiB (ppn &lt; 32) or 64 KiB
 *   else NIC &gt;= 48 GB/s:         24 channels, tree max 128 KiB (64 KiB on a GPU-NIC path of PXB or better)
 *   else:                         nothing changes
 * </pre>
 * A tree max left unset is 64 KiB on 4 or more nodes, else the chunk. NCCL 2.28.9 has no such tuning
 * ({@code ncclNvlsInit}: 16, or 24 / 32 on sm100; {@code src/enqueue.cc calcCollChunking}: NVLSTree max 64 KiB on 4 or
 * more nodes, else the chunk), nor has 2.27.3, the release of the OCI GB200 NVL72 runs. The GPU-NIC path is the NVLS
 * graph's {@code typeInter} (PIX and PXB: a PCIe switch; P2C on a Grace superchip, through the CPU).
 *
 * <p>Before 2.21 the NVLSTree chunk does not start from the NVLS chunk but from the Simple step, NCCL_BUFFSIZE /
 * NCCL_STEPS (512 KiB by default), {@code treeFromStep}: NCCL 2.18.5 {@code src/enqueue.cc computeColl}
 * ({@code chunkSize = stepSize * chunkSteps}, chunkSteps 1 outside Ring; its NVLS_TREE branch applies only the size
 * steps, no cap); 2.19.3 the same with 64 KiB on 4 or more nodes; 2.20.3 {@code calcCollChunking} caps it with
 * NCCL_NVLSTREE_MAX_CHUNKSIZE, default 64 KiB on 4 or more nodes, else the step; 2.21.5 first starts from
 * {@code comm->nvlsChunkSize}. The NVLS chunk itself is min(step, 128 KiB) in all of them. Immutable.
 *
 * @param channels     NVLS channels, >= 1
 * @param chunk        NVLS chunk, bytes
 * @param treeMaxChunk largest NVLSTree chunk, bytes
 * @param treeFromStep true where the NVLSTree chunk starts from the Simple step, not the NVLS chunk (before 2.21)
 */
public record NvlsTuning(int channels, long chunk, long treeMaxChunk, boolean treeFromStep) {

    /** A tuning whose NVLSTree chunk starts from the NVLS chunk (2.21 and later). */
    public NvlsTuning(int channels, long chunk, long treeMaxChunk) {
        this(channels, chunk, treeMaxChunk, false);
    }

    /** NCCL_NVLS_CHUNKSIZE default, bytes (NCCL 2.30.7 {@code src/transport/nvls.cc}). */
    public static final long DEFAULT_CHUNK = 128 << 10;

    private static final long K64 = 64 << 10;
    private static final long K128 = 128 << 10;
    private static final long K256 = 256 << 10;
    /** NCCL compares its float GB/s with 48.0f and 96.0f; collsim's path bandwidths are sums of doubles. */
    private static final double EPS = 1e-9;

    /**
     * @param version  NCCL release
     * @param minSm    smallest compute capability x 10
     * @param nNodes   NCCL nodes
     * @param ppn      fewest ranks on one node ({@code comm->minLocalRanks})
     * @param nicBw    smallest GPU-NIC path bandwidth of the ranks' local NICs, GB/s (0: none)
     * @param nicPath  NVLS graph's path type to the network
     * @return the tuning
     */
    public static NvlsTuning of(NcclVersion version, int minSm, int nNodes, int ppn, double nicBw, PathType nicPath) {
        int channels = defaultChannels(version, minSm, nNodes);
        long fallbackTree = nNodes >= 4 ? K64 : DEFAULT_CHUNK;
        if (version.minor() < NcclVersion.V2_21_5.minor()) {
            boolean capped = nNodes >= 4 && version.minor() >= NcclVersion.V2_19_4.minor();
            return new NvlsTuning(channels, DEFAULT_CHUNK, capped ? K64 : Long.MAX_VALUE, true);
        }
        if (version.tables() == NcclVersion.V2_28_9 || minSm < 100 || nNodes < 2) {
            return new NvlsTuning(channels, DEFAULT_CHUNK, fallbackTree);
        }
        boolean pxb = nicPath.ordinal() <= PathType.PXB.ordinal();
        boolean nic48 = nicBw >= 48 - EPS;
        boolean nic96 = nicBw >= 96 - EPS;
        if (nNodes == 2 && nic48) {
            if (ppn <= 4) {
                return new NvlsTuning(32, K256, K256);
            }
            boolean small = ppn >= 16 || ppn <= 8 && pxb && !nic96;
            return new NvlsTuning(32, DEFAULT_CHUNK, small ? K64 : K128);
        }
        if (nic96) {
            return ppn <= 8 ? new NvlsTuning(24, K256, K256)
                    : new NvlsTuning(32, DEFAULT_CHUNK, ppn < 32 ? K128 : K64);
        }
        if (nic48) {
            return new NvlsTuning(24, DEFAULT_CHUNK, pxb ? K64 : K128);
        }
        return new NvlsTuning(channels, DEFAULT_CHUNK, fallbackTree);
    }

    /**
     * NCCL's NVLS channels before NCCL_NVLS_NCHANNELS ({@code ncclNvlsInit}, src/transport/nvls.cc): 16 up to 2.24
     * (NCCL_NVLS_NCHANNELS default 16 for every GPU, v2.24.3-1 line 146); 2.25-2.26 32 on sm100 on one node as on
     * several ({@code compCap >= 100 ? NVLS_NCHANNELS_SM100 : NVLS_NCHANNELS_SM90}, 32 and 16, v2.25.1-1 and
     * v2.26.2-1 lines 144-145, 176); from 2.27 on sm100 24 on one node or one NVLink clique and 32 on several
     * ({@code NVLS_NCHANNELS_SM100_NVL}, v2.27.3-1 lines 147-149, 179-193; the same in 2.28.9 and 2.30.7).
     *
     * @param version NCCL release
     * @param minSm   smallest compute capability x 10
     * @param nNodes  NCCL nodes
     * @return channels
     */
    static int defaultChannels(NcclVersion version, int minSm, int nNodes) {
        if (minSm < 100 || version.minor() < NcclVersion.V2_25_1.minor()) {
            return 16;
        }
        return nNodes > 1 || version.minor() < NcclVersion.V2_27_3.minor() ? 32 : 24;
    }

    /**
     * NCCL's NVLS support test on the GPUs of a node ({@code ncclNvlsInit}, {@code src/transport/nvls.cc}): NCCL
     * returns with NVLS off when the rank's topology holds too few GPUs ({@code ncclTopoGetGpuCount}: the node's GPUs
     * of the communicator, the NVLink clique's on a multi-node NVLink system), before it asks CUDA for multicast and
     * whatever NCCL_NVLS_ENABLE says. Up to 2.28.3 a node needs 3 GPUs ({@code gpuCount <= 2}: v2.18.5-1 line 239,
     * v2.19.4-1 line 251, v2.21.5-1 line 241 with {@code comm->clique.size <= 2} on MNNVL, v2.27.7-1 and v2.28.3-1
     * line 160); from 2.28.7 two suffice ({@code gpuCount < 2}: v2.28.7-1 and v2.28.9-1 line 161, v2.30.7-1 line 262).
     * So a 2 x 2 DGX H100 communicator has no NVLS or NVLSTree before 2.28.7. Entries model ranges: the 2.28.9 entry
     * stands for 2.28.3 too (2.28.3 still refuses two GPUs), and the 2.19.4 entry for 2.20, which also refuses NVLS
     * on several nodes in its text ({@code || comm->nNodes > 1 || comm->MNNVL}, v2.20.5-1 line 240), but
     * {@code initTransportsRank} calls it (v2.20.3-1 {@code src/init.cc} line 1008) before it counts the nodes
     * (line 1082), so the test reads 0 and 2.20 runs NVLSTree between nodes: nothing to model.
     *
     * @param version   NCCL release
     * @param localGpus fewest GPUs of the communicator on one NCCL node
     * @return true when {@code ncclNvlsInit} goes on to test multicast support
     */
    public static boolean ncclNvlsInitSupports(NcclVersion version, int localGpus) {
        return version.minor() >= NcclVersion.V2_28_9.minor() ? localGpus >= 2 : localGpus > 2;
    }

    /**
     * The tuning with the run's NCCL_NVLS_CHUNKSIZE and NCCL_NVLSTREE_MAX_CHUNKSIZE where set (a size; -2 keeps
     * NCCL's rule): a set value wins over NCCL's defaults and over 2.30.7's sm100 tuning (v2.30.7-1
     * {@code src/transport/nvls.cc}: "User overrides take priority over tuning", "env var &gt; tuning &gt; fallback";
     * v2.20.3-1 {@code src/enqueue.cc} line 1715 and v2.26.2-1 line 1894 read the tree cap per call). The chunk
     * also moves the tree cap NCCL derives from it (the chunk itself below 4 nodes). aws-ofi-nccl sets both to
     * 524288 on AWS hosts (v1.8.0-aws the tree cap, v1.9.0-aws both, {@code src/platform-aws.c platform_init},
     * {@code setenv(..., 0)}; v1.17.0 in the p5 and later platform entries), as its INFO log prints; collsim applies
     * them where the run's settings (header, log) state them, not by the network class: runs with an unknown plugin
     * release disagree (docs/accuracy.md, "Checked 2026-12-07 (hnvlst)").
     *
     * @param s      the run's NCCL settings
     * @param nNodes NCCL nodes
     * @return this tuning with the settings applied
     */
    public NvlsTuning withSettings(NcclSettings s, int nNodes) {
        if (s.nvlsChunkSize().isEmpty() && s.nvlsTreeMaxChunkSize().isEmpty()) {
            return this;
        }
        long c = s.nvlsChunkSize().orElse(chunk);
        long derived = treeMaxChunk == chunk && nNodes < 4 ? c : treeMaxChunk;
        return new NvlsTuning(channels, c, s.nvlsTreeMaxChunkSize().orElse(derived), treeFromStep);
    }

    /** @return the NVLSTree chunk before its size steps from 2.21 on: min(chunk, treeMaxChunk), bytes */
    public long treeChunk() {
        return Math.min(chunk, treeMaxChunk);
    }

    /**
     * @param stepBytes the Simple step, NCCL_BUFFSIZE / NCCL_STEPS, bytes
     * @return the NVLSTree chunk before its size steps: min(step before 2.21, else chunk; treeMaxChunk), bytes
     */
    public long treeChunk(long stepBytes) {
        return Math.min(treeFromStep ? stepBytes : chunk, treeMaxChunk);
    }
}
