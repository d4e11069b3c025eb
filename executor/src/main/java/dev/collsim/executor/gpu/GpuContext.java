package dev.collsim.executor.gpu;

import static dev.collsim.executor.gpu.Native.cuda;
import static dev.collsim.executor.gpu.Native.nccl;

import dev.collsim.executor.ExecutorException;
import dev.collsim.perf.GpuInfo;
import dev.collsim.perf.PerfJson;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclUniqueId;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * The GPUs, communicators, streams and buffers of one process. {@link #close()} releases everything it
 * created (buffers, streams, communicators; communicators aborted after a timeout are not destroyed again).
 */
public final class GpuContext implements AutoCloseable {

    /** Bytes of the pinned host staging buffer for the data check. */
    static final long STAGING_BYTES = 64L << 20;

    final int firstRank;
    final int nRanks;
    final int[] devices;
    final ncclComm[] comms;
    final CUstream_st[] streams;
    final Pointer[] sendBufs;
    final Pointer[] recvBufs;
    final BytePointer[] sendP;
    final BytePointer[] recvP;
    final BytePointer[] sendInPlaceP;
    final Pointer scratch[];
    long bufBytes;
    BytePointer staging;
    ByteBuffer stagingBuf;
    boolean aborted;
    private ByteBuffer checkScratch;
    private final List<GpuInfo> gpus = new ArrayList<>();
    private final List<GpuInfo> remoteGpus = new ArrayList<>();

    private GpuContext(int firstRank, int nRanks, int[] devices) {
        this.firstRank = firstRank;
        this.nRanks = nRanks;
        this.devices = devices.clone();
        int n = devices.length;
        comms = new ncclComm[n];
        streams = new CUstream_st[n];
        sendBufs = new Pointer[n];
        recvBufs = new Pointer[n];
        sendP = new BytePointer[n];
        recvP = new BytePointer[n];
        sendInPlaceP = new BytePointer[n];
        scratch = new Pointer[n];
    }

    /** @return number of CUDA devices visible, 0 when none or no driver */
    public static int deviceCount() {
        int[] c = new int[1];
        int rc = cudart.cudaGetDeviceCount(c);
        return rc == 0 ? c[0] : 0;
    }

    /**
     * Reads what CUDA says about a device.
     *
     * @param rank   the rank it will run
     * @param device CUDA device index
     * @return its description
     */
    public static GpuInfo describe(int rank, int device) {
        cudaDeviceProp p = new cudaDeviceProp();
        cuda(cudart.cudaGetDeviceProperties(p, device), "cudaGetDeviceProperties(device " + device + ")");
        byte[] bus = new byte[64];
        cuda(cudart.cudaDeviceGetPCIBusId(bus, bus.length, device), "cudaDeviceGetPCIBusId(" + device + ")");
        int[] clk = new int[1];
        int[] mclk = new int[1];
        cudart.cudaDeviceGetAttribute(clk, cudart.cudaDevAttrClockRate, device);
        cudart.cudaDeviceGetAttribute(mclk, cudart.cudaDevAttrMemoryClockRate, device);
        String busId = new String(bus, StandardCharsets.US_ASCII).trim().replace("\0", "");
        return new GpuInfo(rank, hostname(), ProcessHandle.current().pid(), device, busId,
                p.name().getString(), clk[0] / 1000, mclk[0] / 1000, p.totalGlobalMem(),
                p.multiProcessorCount(), p.major() + "." + p.minor());
    }

    /** @return the host name up to its first dot, as nccl-tests' getHostName */
    public static String hostname() {
        String h = System.getenv("HOSTNAME");
        if (h == null || h.isBlank()) {
            try {
                h = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                h = "localhost";
            }
        }
        int dot = h.indexOf('.');
        return dot > 0 ? h.substring(0, dot) : h;
    }

    /**
     * nccl-tests 2.19.6's communicator settings ({@code src/common.cu initComms}): NCCL_CONFIG_INITIALIZER
     * (every field undefined: INT_MIN, NULL pointers; magic 0xcafebeef; NCCL 2.14+ {@code nccl.h}) with
     * {@code nvlinkCentricSched = 1} for NCCL 2.28+.
     *
     * @param libCode the NCCL library version code (the version the struct is declared as)
     * @return the config
     */
    static org.bytedeco.cuda.nccl.ncclConfig_t ncclTestsConfig(int libCode) {
        org.bytedeco.cuda.nccl.ncclConfig_t c = new org.bytedeco.cuda.nccl.ncclConfig_t();
        int undef = Integer.MIN_VALUE;
        c.size(c.sizeof()).magic(nccl.NCCL_API_MAGIC).version(libCode);
        c.blocking(undef).cgaClusterSize(undef).minCTAs(undef).maxCTAs(undef).splitShare(undef)
                .trafficClass(undef).collnetEnable(undef).CTAPolicy(undef).shrinkShare(undef).nvlsCTAs(undef)
                .nChannelsPerNetPeer(undef).nvlinkCentricSched(undef).graphUsageMode(undef).numRmaCtx(undef);
        c.netName(null).commName(null);
        if (libCode >= 22800) {
            c.nvlinkCentricSched(1);
        }
        return c;
    }

    /**
     * One process drives all ranks. With {@code useInitAll}, ncclCommInitAll; otherwise as nccl-tests does: one
     * unique id and ncclCommInitRankConfig for every device in one group, with {@link #ncclTestsConfig}.
     *
     * @param devices    CUDA device indices, one per rank
     * @param useInitAll true for ncclCommInitAll
     * @param libCode    NCCL library version code
     * @return the context with communicators and streams
     */
    public static GpuContext initLocal(int[] devices, boolean useInitAll, int libCode) {
        if (useInitAll) {
            return initAll(devices);
        }
        GpuContext c = new GpuContext(0, devices.length, devices);
        try {
            for (int i = 0; i < devices.length; i++) {
                c.gpus.add(describe(i, devices[i]));
            }
            c.initWithConfig(newUniqueId(), libCode);
            c.createStreams();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void initWithConfig(byte[] id, int libCode) {
        ncclUniqueId uid = new ncclUniqueId();
        uid.internal().put(id, 0, Math.min(id.length, 128));
        org.bytedeco.cuda.nccl.ncclConfig_t cfg = ncclTestsConfig(libCode);
        nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < devices.length; i++) {
            cuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice(" + devices[i] + ")");
            comms[i] = new ncclComm();
            nccl(nccl.ncclCommInitRankConfig(comms[i], nRanks, uid, firstRank + i, cfg),
                    "ncclCommInitRankConfig(rank " + (firstRank + i) + " of " + nRanks + ")");
        }
        nccl(nccl.ncclGroupEnd(), "ncclGroupEnd after ncclCommInitRankConfig");
    }

    /**
     * One process drives all ranks: ncclCommInitAll over the given devices.
     *
     * @param devices CUDA device indices, one per rank
     * @return the context with communicators and streams
     */
    public static GpuContext initAll(int[] devices) {
        GpuContext c = new GpuContext(0, devices.length, devices);
        try {
            for (int i = 0; i < devices.length; i++) {
                c.gpus.add(describe(i, devices[i]));
            }
            PointerPointer<ncclComm> pp = new PointerPointer<>(devices.length);
            nccl(nccl.ncclCommInitAll(pp, devices.length, devices), "ncclCommInitAll(" + devices.length
                    + " ranks on devices " + Arrays.toString(devices) + ")");
            for (int i = 0; i < devices.length; i++) {
                c.comms[i] = new ncclComm(pp.get(i));
            }
            c.createStreams();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * One rank of many processes: ncclCommInitRankConfig (nccl-tests' config) for each local device, in one group.
     *
     * @param id        the unique id bytes from rank 0
     * @param nRanks    total ranks
     * @param firstRank global rank of the first local device
     * @param devices   local CUDA devices
     * @param libCode   NCCL library version code
     * @return the context
     */
    public static GpuContext initRanks(byte[] id, int nRanks, int firstRank, int[] devices, int libCode) {
        GpuContext c = new GpuContext(firstRank, nRanks, devices);
        try {
            for (int i = 0; i < devices.length; i++) {
                c.gpus.add(describe(firstRank + i, devices[i]));
            }
            c.initWithConfig(id, libCode);
            c.createStreams();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** @return a fresh ncclUniqueId (rank 0), as bytes */
    public static byte[] newUniqueId() {
        ncclUniqueId uid = new ncclUniqueId();
        nccl(nccl.ncclGetUniqueId(uid), "ncclGetUniqueId");
        byte[] b = new byte[128];
        uid.internal().get(b, 0, 128);
        return b;
    }

    private void createStreams() {
        for (int i = 0; i < devices.length; i++) {
            cuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice(" + devices[i] + ")");
            streams[i] = new CUstream_st();
            cuda(cudart.cudaStreamCreateWithFlags(streams[i], cudart.cudaStreamNonBlocking),
                    "cudaStreamCreateWithFlags");
        }
        cuda(cudart.cudaSetDevice(devices[0]), "cudaSetDevice(" + devices[0] + ")");
    }

    /**
     * Allocates send and receive buffers of the given size on every local GPU with ncclMemAlloc (as nccl-tests
     * 2.19.6 {@code AllocateBuffs} does with NCCL 2.19+), a scratch buffer, and a pinned staging buffer.
     *
     * @param bytes bytes per buffer (nccl-tests allocates maxBytes for each)
     * @throws ExecutorException (device) on out-of-memory, naming the size
     */
    public void allocate(long bytes) {
        bufBytes = Math.max(bytes, 64);
        for (int i = 0; i < devices.length; i++) {
            cuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice(" + devices[i] + ")");
            sendBufs[i] = new Pointer();
            nccl(nccl.ncclMemAlloc(sendBufs[i], bufBytes), "ncclMemAlloc(" + bufBytes + " B) on device " + devices[i]);
            recvBufs[i] = new Pointer();
            nccl(nccl.ncclMemAlloc(recvBufs[i], bufBytes), "ncclMemAlloc(" + bufBytes + " B) on device " + devices[i]);
            scratch[i] = new Pointer();
            cuda(cudart.cudaMalloc(scratch[i], 64), "cudaMalloc(64 B) on device " + devices[i]);
            sendP[i] = new BytePointer(sendBufs[i]);
            recvP[i] = new BytePointer(recvBufs[i]);
            sendInPlaceP[i] = new BytePointer(recvBufs[i]);
        }
        cuda(cudart.cudaSetDevice(devices[0]), "cudaSetDevice(" + devices[0] + ")");
        Pointer h = new Pointer();
        cuda(cudart.cudaMallocHost(h, STAGING_BYTES), "cudaMallocHost(" + STAGING_BYTES + " B)");
        staging = new BytePointer(h);
        staging.capacity(STAGING_BYTES);
        stagingBuf = staging.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** @return a heap buffer of {@link #STAGING_BYTES} for the data check, made once */
    ByteBuffer checkScratch() {
        if (checkScratch == null) {
            checkScratch = ByteBuffer.allocate((int) STAGING_BYTES);
        }
        return checkScratch;
    }

    /**
     * Adds the GPUs other ranks reported at rendezvous (JSON lists of {@link GpuInfo}); unreadable payloads are
     * skipped, since they only feed the report.
     *
     * @param payloads rank to payload
     */
    void addRemoteGpus(Map<Integer, byte[]> payloads) {
        for (byte[] p : payloads.values()) {
            try {
                GpuInfo[] list = PerfJson.mapper().readValue(p, GpuInfo[].class);
                remoteGpus.addAll(Arrays.asList(list));
            } catch (IOException e) {
                // a rank without a readable description still ran; the report lacks its line
            }
        }
    }

    /** @return every rank's GPU known here (all ranks on rank 0 of a multi-process run), by rank */
    public List<GpuInfo> allGpus() {
        List<GpuInfo> all = new ArrayList<>(gpus);
        all.addAll(remoteGpus);
        all.sort(Comparator.comparingInt(GpuInfo::rank));
        return all;
    }

    /** @return the GPUs of this process's ranks */
    public List<GpuInfo> gpus() {
        return List.copyOf(gpus);
    }

    /** @return number of local ranks */
    public int localRanks() {
        return devices.length;
    }

    /** Aborts every communicator (after a timeout or an asynchronous NCCL error). */
    void abortAll() {
        if (aborted) {
            return;
        }
        aborted = true;
        for (ncclComm c : comms) {
            if (c != null && !c.isNull()) {
                nccl.ncclCommAbort(c);
            }
        }
    }

    /** Frees buffers, streams and communicators; never throws. */
    @Override
    public void close() {
        for (int i = 0; i < devices.length; i++) {
            try {
                cudart.cudaSetDevice(devices[i]);
                if (sendBufs[i] != null && !sendBufs[i].isNull()) {
                    nccl.ncclMemFree(sendBufs[i]);
                }
                if (recvBufs[i] != null && !recvBufs[i].isNull()) {
                    nccl.ncclMemFree(recvBufs[i]);
                }
                if (scratch[i] != null && !scratch[i].isNull()) {
                    cudart.cudaFree(scratch[i]);
                }
                if (streams[i] != null && !streams[i].isNull()) {
                    cudart.cudaStreamDestroy(streams[i]);
                }
            } catch (Throwable t) {
                // best effort on the way out
            }
            sendBufs[i] = null;
            recvBufs[i] = null;
            scratch[i] = null;
            streams[i] = null;
        }
        if (staging != null && !staging.isNull()) {
            cudart.cudaFreeHost(staging);
            staging = null;
        }
        if (!aborted) {
            for (int i = 0; i < comms.length; i++) {
                if (comms[i] != null && !comms[i].isNull()) {
                    try {
                        nccl.ncclCommDestroy(comms[i]);
                    } catch (Throwable t) {
                        // best effort
                    }
                }
            }
        }
        Arrays.fill(comms, null);
    }

    /**
     * @param what description for the error
     * @throws ExecutorException when the context was aborted
     */
    void checkUsable(String what) {
        if (aborted) {
            throw new ExecutorException(what + ": communicators were aborted", ExecutorException.DEVICE);
        }
    }
}
