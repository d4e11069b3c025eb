package dev.collsim.nccl.env;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validated NCCL environment settings, as a user would export them for one process. Parsing never reads the
 * caller's own environment: the map given is the whole setting. Every command parses its settings once, where the
 * user gave them ({@code --env}, {@code --algo}/{@code --proto}, a report spec's {@code env:}, a measured file's
 * header), and carries this object in its requests; consumers ask it typed questions instead of reading names.
 * Accessors return NCCL's default when a variable is unset; each names the default and the NCCL 2.30.7 file that
 * reads the variable ({@link NcclVariable#source()}; defaults also in {@code docs/userguide/source/env.rst}).
 * Two settings are equal when the same variables were given the same texts. This class is immutable.
 */
public final class NcclSettings {

    /** No variable set: NCCL's defaults. */
    public static final NcclSettings DEFAULTS = parse(Map.of());

    private final Map<NcclVariable, Object> values;
    private final Map<String, String> raw;
    private final List<String> passedOver;

    private NcclSettings(Map<NcclVariable, Object> values, Map<String, String> raw, List<String> passedOver) {
        this.values = Collections.unmodifiableMap(values);
        this.raw = Collections.unmodifiableMap(raw);
        this.passedOver = List.copyOf(passedOver);
    }

    /**
     * Parses and validates a set of variables. An {@code NCCL_*} name collsim does not model, no near miss of one it models ({@link NcclVariable#passedOver}:
     * NCCL_IB_HCA from a pasted environment), is left out; {@link #passedOverWarning()} names it.
     *
     * @param env variable name to value, e.g. {@code NCCL_ALGO -> "Ring"}; null means none
     * @return the settings
     * @throws IllegalArgumentException for a near miss of a modelled name (did-you-mean), a non-NCCL name,
     *                                  NCCL_IB_DISABLE or NCCL_NET, or a malformed value, naming the allowed values
     */
    public static NcclSettings parse(Map<String, String> env) {
        EnumMap<NcclVariable, Object> values = new EnumMap<>(NcclVariable.class);
        Map<String, String> raw = new LinkedHashMap<>();
        List<String> passedOver = new ArrayList<>();
        if (env != null) {
            env.keySet().stream().sorted().forEach(name -> {
                if (NcclVariable.passedOver(name)) {
                    passedOver.add(name);
                    return;
                }
                NcclVariable v = NcclVariable.of(name);
                values.put(v, v.parse(env.get(name)));
                raw.put(name, env.get(name));
            });
        }
        NcclSettings s = new NcclSettings(values, raw, passedOver);
        if (s.minChannels() > s.maxChannels()) {
            throw new IllegalArgumentException("minimum channels (" + s.minChannels() + ") exceed maximum channels ("
                    + s.maxChannels() + "); allowed: NCCL_MIN_CTAS and NCCL_MIN_NCHANNELS <= NCCL_MAX_CTAS and "
                    + "NCCL_MAX_NCHANNELS");
        }
        return s;
    }

    /**
     * The settings of a recorded run (a measured file's header, an NCCL log) that collsim can model: the variables
     * it models whose values it accepts; every other variable is left out (compare with the record to list them).
     *
     * @param env the run's environment as recorded; null means none
     * @return the settings
     * @throws IllegalArgumentException when the accepted variables contradict each other (e.g. min above max
     *                                  channels)
     */
    public static NcclSettings modelled(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        if (env != null) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                try {
                    NcclVariable.of(e.getKey()).parse(e.getValue());
                    out.put(e.getKey(), e.getValue());
                } catch (IllegalArgumentException ex) {
                    // not modelled, or a value the model cannot use: left out
                }
            }
        }
        return parse(out);
    }

    /** @return one line naming the NCCL variables {@link #parse} left out, in name order; empty when none */
    public Optional<String> passedOverWarning() {
        return passedOver.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", passedOver)
                + ": not modelled by collsim; the prediction is NCCL's behaviour without "
                + (passedOver.size() == 1 ? "it" : "them"));
    }

    /** @return the variables as given (validated), in name order */
    public Map<String, String> asMap() {
        return raw;
    }

    /** @return the variables as {@code NAME=VALUE} joined by spaces, in name order; "" for NCCL's defaults */
    public String label() {
        StringBuilder sb = new StringBuilder();
        raw.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /** @return true when no variable is set */
    public boolean isDefault() {
        return values.isEmpty();
    }

    /** @return true when the variable was set */
    public boolean isSet(NcclVariable v) {
        return values.containsKey(v);
    }

    private int intOr(NcclVariable v, int def) {
        Object o = values.get(v);
        return o == null ? def : (Integer) o;
    }

    /** @return NCCL_ALGO, parsed; default every algorithm enabled ({@code src/graph/tuning.cc}) */
    @SuppressWarnings("unchecked")
    public AlgoProtoFilter<Algorithm> algo() {
        Object o = values.get(NcclVariable.NCCL_ALGO);
        return o == null ? AlgoProtoFilter.defaults(Algorithm.class) : (AlgoProtoFilter<Algorithm>) o;
    }

    /** @return NCCL_PROTO, parsed; default every protocol, LL128 where safe ({@code src/graph/tuning.cc}) */
    @SuppressWarnings("unchecked")
    public AlgoProtoFilter<Protocol> proto() {
        Object o = values.get(NcclVariable.NCCL_PROTO);
        return o == null ? AlgoProtoFilter.defaults(Protocol.class) : (AlgoProtoFilter<Protocol>) o;
    }

    /**
     * Runtime channels are raised to both minimums: NCCL 2.30.7 {@code src/graph/connect.cc} ({@code ncclTopoPostset})
     * duplicates channels up to {@code max(ncclMinNchannels(), config.minCTAs)}, so where NCCL_MIN_NCHANNELS and
     * NCCL_MIN_CTAS are both set the larger wins.
     *
     * @return max(NCCL_MIN_CTAS, NCCL_MIN_NCHANNELS), each defaulting to 1
     */
    public int minChannels() {
        return Math.max(minCtas(), intOr(NcclVariable.NCCL_MIN_NCHANNELS, 1));
    }

    /**
     * Runtime channels are capped by both maximums: NCCL 2.30.7 {@code src/graph/connect.cc} ({@code ncclTopoPostset})
     * takes {@code min(ncclMaxNchannels(), nChannels, config.maxCTAs)}, so where NCCL_MAX_NCHANNELS and NCCL_MAX_CTAS
     * are both set the smaller wins.
     *
     * @return min(NCCL_MAX_CTAS, NCCL_MAX_NCHANNELS), each defaulting to 64 = MAXCHANNELS
     */
    public int maxChannels() {
        return Math.min(maxCtas(), intOr(NcclVariable.NCCL_MAX_NCHANNELS, 64));
    }

    /** @return NCCL_MIN_CTAS (communicator config minCTAs, {@code src/init.cc}); default 1 */
    public int minCtas() {
        return intOr(NcclVariable.NCCL_MIN_CTAS, 1);
    }

    /**
     * @return NCCL_MAX_CTAS (communicator config maxCTAs, {@code src/init.cc}); default 64 = MAXCHANNELS. NVLS channels
     *         are clamped by the CTA limits only, not by NCCL_MAX_NCHANNELS ({@code src/transport/nvls.cc})
     */
    public int maxCtas() {
        return intOr(NcclVariable.NCCL_MAX_CTAS, 64);
    }

    /** @return NCCL_NTHREADS if set; NCCL's default 512, 256 on slow PCIe rings ({@code src/graph/tuning.cc}) */
    public Optional<Integer> nThreads() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_NTHREADS));
    }

    /** @return NCCL_LL128_NTHREADS; default 640 = NCCL_LL128_MAX_NTHREADS ({@code src/graph/tuning.cc}) */
    public int ll128NThreads() {
        return intOr(NcclVariable.NCCL_LL128_NTHREADS, NcclDevice.NCCL_LL128_MAX_NTHREADS);
    }

    /** @return Simple buffer per connection, bytes: NCCL_BUFFSIZE; default 4 MiB ({@code src/init.cc}) */
    public long buffSize() {
        Object o = values.get(NcclVariable.NCCL_BUFFSIZE);
        return o == null ? 4L << 20 : (Long) o;
    }

    /** @return LL buffer per connection, bytes: NCCL_LL_BUFFSIZE; default 512 KiB ({@code src/init.cc}) */
    public long llBuffSize() {
        Object o = values.get(NcclVariable.NCCL_LL_BUFFSIZE);
        return o == null ? 512L << 10 : (Long) o;
    }

    /** @return LL128 buffer per connection, bytes: NCCL_LL128_BUFFSIZE; default 4,915,200 ({@code src/init.cc}) */
    public long ll128BuffSize() {
        Object o = values.get(NcclVariable.NCCL_LL128_BUFFSIZE);
        return o == null ? 4_915_200L : (Long) o;
    }

    /**
     * @param p protocol
     * @return the protocol's buffer per connection, bytes ({@code comm->buffSizes[p]}): {@link #llBuffSize},
     *         {@link #ll128BuffSize} or {@link #buffSize}
     */
    public long buffSize(Protocol p) {
        return switch (p) {
            case LL -> llBuffSize();
            case LL128 -> ll128BuffSize();
            case SIMPLE -> buffSize();
        };
    }

    /**
     * @param p protocol
     * @return the protocol's step, bytes: its buffer / NCCL_STEPS ({@code stepSize}, NCCL 2.30.7
     *         {@code src/enqueue.cc}), data and flags together
     */
    public long stepBytes(Protocol p) {
        return buffSize(p) / NcclDevice.NCCL_STEPS;
    }

    /**
     * @return NCCL_P2P_NET_CHUNKSIZE, bytes; default 128 KiB ({@code src/init.cc}; fact sheet §3.3: NET 128 KiB, x2 on
     *         ARM with Blackwell across nodes, which collsim does not model)
     */
    public long p2pNetChunkSize() {
        Object o = values.get(NcclVariable.NCCL_P2P_NET_CHUNKSIZE);
        return o == null ? 128L << 10 : (Long) o;
    }

    /**
     * @return the work FIFO NCCL allocates, bytes: NCCL_WORK_FIFO_BYTES when 0 or a power of two (NCCL 2.27.3
     *         {@code src/init.cc}: 0 passes its power-of-two test), NCCL's default 1 MiB for any other value (it warns
     *         and ignores it) or when unset, at most 1 GiB
     */
    public long workFifoBytes() {
        Object o = values.get(NcclVariable.NCCL_WORK_FIFO_BYTES);
        long b = o == null ? 1L << 20 : (Long) o;
        return (b & (b - 1)) != 0 ? 1L << 20 : Math.min(b, 1L << 30);
    }

    /** @return NCCL_NVLS_ENABLE: 0, 1 or 2; default 2 = auto ({@code src/transport/nvls.cc}) */
    public int nvlsEnable() {
        return intOr(NcclVariable.NCCL_NVLS_ENABLE, 2);
    }

    /**
     * @return NCCL_NVLS_CHUNKSIZE if set, bytes: NCCL's NVLS chunk ({@code comm->nvlsChunkSize}, NCCL 2.30.7
     *         {@code src/transport/nvls.cc}; a set value wins over 2.30.7's sm100 tuning)
     */
    public Optional<Long> nvlsChunkSize() {
        return Optional.ofNullable((Long) values.get(NcclVariable.NCCL_NVLS_CHUNKSIZE));
    }

    /**
     * @return NCCL_NVLSTREE_MAX_CHUNKSIZE if set to a size, bytes; empty when unset or -2 (NCCL's own rule: 64 KiB on 4
     *         or more nodes, else the chunk; NCCL 2.20.3 {@code src/enqueue.cc calcCollChunking}, 2.30.7
     *         {@code src/transport/nvls.cc})
     */
    public Optional<Long> nvlsTreeMaxChunkSize() {
        Long v = (Long) values.get(NcclVariable.NCCL_NVLSTREE_MAX_CHUNKSIZE);
        return v == null || v < 0 ? Optional.empty() : Optional.of(v);
    }

    /** @return NCCL_NVLS_NCHANNELS if set; NCCL's default 16 on sm90, 24/32 on sm100 ({@code src/init.cc}) */
    public Optional<Integer> nvlsNChannels() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_NVLS_NCHANNELS));
    }

    /** @return NCCL_P2P_LEVEL if set; NCCL's default PXB ({@code src/graph/paths.cc}) */
    public Optional<PathType> p2pLevel() {
        return Optional.ofNullable((PathType) values.get(NcclVariable.NCCL_P2P_LEVEL));
    }

    /** @return true when NCCL_P2P_DISABLE=1; default 0 ({@code src/graph/paths.cc}) */
    public boolean p2pDisable() {
        return intOr(NcclVariable.NCCL_P2P_DISABLE, 0) == 1;
    }

    /**
     * @return NCCL_P2P_READ_ENABLE if set: true for 1 (P2P read), false for 0 (P2P write); empty when unset, where
     *         NCCL's topology decides (read between sm80 GPUs on an NVLink path, NCCL 2.30.7 {@code src/graph/paths.cc
     *         ncclTopoCheckP2p}; the override in {@code src/transport/p2p.cc p2pGetInfo})
     */
    public Optional<Boolean> p2pReadEnable() {
        Object o = values.get(NcclVariable.NCCL_P2P_READ_ENABLE);
        return o == null ? Optional.empty() : Optional.of((Integer) o == 1);
    }

    /**
     * @return NCCL_NET_GDR_LEVEL if set; NCCL's default P2C, PXB with NCCL_NET_GDR_C2C=0 ({@code src/graph/paths.cc}
     *         {@code ncclTopoCheckGdr})
     */
    public Optional<PathType> netGdrLevel() {
        return Optional.ofNullable((PathType) values.get(NcclVariable.NCCL_NET_GDR_LEVEL));
    }

    /** @return false when NCCL_NET_GDR_C2C=0; default 1 ({@code src/graph/paths.cc}) */
    public boolean netGdrC2c() {
        return intOr(NcclVariable.NCCL_NET_GDR_C2C, 1) == 1;
    }

    /**
     * @return NCCL_NET_GDR_READ as a boolean if set; unset, NCCL's -2 decides per GPU (on for sm80 and newer, before
     *         sm80 only with an NVLink peer; {@code src/graph/paths.cc} {@code ncclTopoCheckGdr})
     */
    public Optional<Boolean> netGdrRead() {
        Object o = values.get(NcclVariable.NCCL_NET_GDR_READ);
        return o == null ? Optional.empty() : Optional.of((Integer) o == 1);
    }

    /** @return NCCL_CROSS_NIC: 0, 1 or 2; default 2 ({@code src/graph/search.cc}) */
    public int crossNic() {
        return intOr(NcclVariable.NCCL_CROSS_NIC, 2);
    }

    /** @return true when NCCL_PXN_DISABLE=1 (no PXN); default 0 ({@code src/graph/paths.cc}) */
    public boolean pxnDisable() {
        return intOr(NcclVariable.NCCL_PXN_DISABLE, 0) == 1;
    }

    /** @return NCCL_PAT_ENABLE: 0, 1 or 2; default 2 = auto ({@code src/graph/tuning.cc}) */
    public int patEnable() {
        return intOr(NcclVariable.NCCL_PAT_ENABLE, 2);
    }

    /** @return true when NCCL_COLLNET_ENABLE=1; default off ({@code src/init.cc}) */
    public boolean collnetEnable() {
        return intOr(NcclVariable.NCCL_COLLNET_ENABLE, 0) == 1;
    }

    /** @return NCCL_COLLNET_NODE_THRESHOLD; default 2 ({@code src/init.cc}) */
    public int collnetNodeThreshold() {
        return intOr(NcclVariable.NCCL_COLLNET_NODE_THRESHOLD, 2);
    }

    /**
     * @return NCCL_NET_OVERHEAD in microseconds, if set (given in nanoseconds); NCCL's default 1 us Intel, 2 us AMD
     *         ({@code src/graph/tuning.cc})
     */
    public Optional<Double> netOverheadUs() {
        Object o = values.get(NcclVariable.NCCL_NET_OVERHEAD);
        return o == null ? Optional.empty() : Optional.of((Integer) o / 1000.0);
    }

    /** @return true unless NCCL_LL128_C2C=0; default 1 ({@code src/graph/tuning.cc}) */
    public boolean ll128C2c() {
        return intOr(NcclVariable.NCCL_LL128_C2C, 1) == 1;
    }

    /** @return true when NCCL_NVB_DISABLE=1; default 0 ({@code src/graph/paths.cc}) */
    public boolean nvbDisable() {
        return intOr(NcclVariable.NCCL_NVB_DISABLE, 0) == 1;
    }

    /** @return NCCL_MIN_P2P_NCHANNELS; default 1 ({@code src/graph/paths.cc}) */
    public int minP2pChannels() {
        return intOr(NcclVariable.NCCL_MIN_P2P_NCHANNELS, 1);
    }

    /** @return NCCL_MAX_P2P_NCHANNELS; default 64 = MAXCHANNELS ({@code src/graph/paths.cc}) */
    public int maxP2pChannels() {
        return intOr(NcclVariable.NCCL_MAX_P2P_NCHANNELS, 64);
    }

    /**
     * @return NCCL_SOCKET_NTHREADS if set; unset, NCCL picks by the NIC's PCI vendor ({@code src/transport/net_socket.cc}
     *         {@code ncclNetSocketGetNsockNthread}: AWS 2, GCP 4, others 0)
     */
    public Optional<Integer> socketNThreads() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_SOCKET_NTHREADS));
    }

    /** @return NCCL_NSOCKS_PERTHREAD if set; unset, NCCL picks by the NIC's PCI vendor (AWS 8, others 1), same file */
    public Optional<Integer> nSocksPerThread() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_NSOCKS_PERTHREAD));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NcclSettings other && other.raw.equals(raw);
    }

    @Override
    public int hashCode() {
        return raw.hashCode();
    }

    @Override
    public String toString() {
        return raw.isEmpty() ? "NCCL defaults" : raw.toString();
    }
}
