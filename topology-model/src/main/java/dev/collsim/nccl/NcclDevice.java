package dev.collsim.nccl;

/**
 * NCCL's device-side constants, the one home of each in collsim: buffer slots per connection, the protocols' line
 * layouts, threads per block, channel and batch limits. Values and names as NCCL 2.30.7 {@code src/include/device.h}
 * defines them (line numbers of that tag); the same values in every release collsim models unless a rule says
 * otherwise ({@code simulator.tuning.ReleaseRules}). The per-connection buffer sizes they divide are NCCL_BUFFSIZE,
 * NCCL_LL_BUFFSIZE and NCCL_LL128_BUFFSIZE ({@code nccl.env.NcclSettings#buffSize(Protocol)}). Sizes in bytes.
 */
public final class NcclDevice {

    /** NCCL_STEPS: buffer slots (steps) per connection (device.h line 26). */
    public static final int NCCL_STEPS = 8;

    /** WARP_SIZE: threads per warp (device.h line 90). */
    public static final int WARP_SIZE = 32;

    /** MAXCHANNELS: most channels of a communicator (device.h line 91). */
    public static final int MAXCHANNELS = 64;

    /** NCCL_MAX_NTHREADS: threads per block of NVLS and CollNet kernels (device.h line 93). */
    public static final int NCCL_MAX_NTHREADS = 640;

    /** NCCL_SIMPLE_MAX_NTHREADS: threads per block of a Simple kernel (device.h line 95). */
    public static final int NCCL_SIMPLE_MAX_NTHREADS = 512;

    /** NCCL_LL_MAX_NTHREADS: threads per block of an LL kernel (device.h line 97). */
    public static final int NCCL_LL_MAX_NTHREADS = 512;

    /** NCCL_LL_LINES_PER_THREAD: LL lines each thread stores per step (device.h line 98). */
    public static final int NCCL_LL_LINES_PER_THREAD = 8;

    /** Bytes of one LL line, {@code union ncclLLFifoLine}: two 4-byte data words and two 4-byte flags (device.h). */
    public static final int LL_LINE_BYTES = 16;

    /** Data bytes of one LL line: its two 4-byte data words. */
    public static final int LL_LINE_DATA_BYTES = 8;

    /** NCCL_LL128_LINESIZE: bytes of one LL128 line, 16 words of 8 bytes (device.h line 110). */
    public static final int NCCL_LL128_LINESIZE = 128;

    /**
     * Data bytes of one LL128 line: NCCL_LL128_DATAELEMS = NCCL_LL128_LINEELEMS - 1 = 15 words of 8 bytes, the 16th
     * the flag (device.h lines 111-112).
     */
    public static final int LL128_LINE_DATA_BYTES = 120;

    /** NCCL_LL128_MAX_NTHREADS: threads per block of an LL128 kernel, NCCL_LL128_NTHREADS' default (line 114). */
    public static final int NCCL_LL128_MAX_NTHREADS = 640;

    /** NCCL_LL128_SHMEM_ELEMS_PER_THREAD: 8-byte words each LL128 thread stages per batch (device.h line 117). */
    public static final int NCCL_LL128_SHMEM_ELEMS_PER_THREAD = 8;

    /** NCCL_MAX_NVLS_ARITY: most NVLS heads, and ranks of one node an NVLS call serves (device.h line 213). */
    public static final int NCCL_MAX_NVLS_ARITY = 32;

    /** NCCL_MAX_DEV_WORK_P2P_PER_BATCH: p2p works one work batch carries (device.h line 391). */
    public static final int NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8;

    private NcclDevice() {
    }

    /**
     * Data bytes per byte a protocol moves on the wire: LL 8 of each 16-byte line, LL128 120 of each 128-byte line,
     * Simple all of it.
     *
     * @param p protocol
     * @return the data fraction, 0.5, 0.9375 or 1
     */
    public static double dataPerLineByte(Protocol p) {
        return switch (p) {
            case LL -> (double) LL_LINE_DATA_BYTES / LL_LINE_BYTES;
            case LL128 -> (double) LL128_LINE_DATA_BYTES / NCCL_LL128_LINESIZE;
            case SIMPLE -> 1.0;
        };
    }

    /**
     * Data bytes of a whole step of a protocol, NCCL's integer arithmetic ({@code src/enqueue.cc calcCollChunking}:
     * LL {@code stepSize / 2}, LL128 {@code stepSize x NCCL_LL128_DATAELEMS / NCCL_LL128_LINEELEMS}), so the wire
     * bytes of the step times {@link #dataPerLineByte}, rounded down.
     *
     * @param p         protocol
     * @param stepBytes the step, bytes: the protocol's buffer / NCCL_STEPS
     * @return data bytes
     */
    public static long stepDataBytes(Protocol p, long stepBytes) {
        return switch (p) {
            case LL -> stepBytes * LL_LINE_DATA_BYTES / LL_LINE_BYTES;
            case LL128 -> stepBytes * LL128_LINE_DATA_BYTES / NCCL_LL128_LINESIZE;
            case SIMPLE -> stepBytes;
        };
    }
}
