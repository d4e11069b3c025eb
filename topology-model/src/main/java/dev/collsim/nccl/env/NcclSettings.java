package dev.collsim.nccl.env;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.topology.PathType;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Validated NCCL environment settings, as a user would export them for one process. Parsing never reads the
 * caller's own environment: the map given is the whole setting. Accessors return NCCL's default when a variable
 * is unset (defaults from NCCL 2.30.7 {@code docs/userguide/source/env.rst} and the files named in
 * {@link NcclVariable}). This class is immutable.
 */
public final class NcclSettings {

    /** No variable set: NCCL's defaults. */
    public static final NcclSettings DEFAULTS = new NcclSettings(new EnumMap<>(NcclVariable.class), Map.of());

    private final Map<NcclVariable, Object> values;
    private final Map<String, String> raw;

    private NcclSettings(Map<NcclVariable, Object> values, Map<String, String> raw) {
        this.values = Collections.unmodifiableMap(values);
        this.raw = Collections.unmodifiableMap(raw);
    }

    /**
     * Parses and validates a set of variables.
     *
     * @param env variable name to value, e.g. {@code NCCL_ALGO -> "Ring"}; null means none
     * @return the settings
     * @throws IllegalArgumentException for an unknown variable or a malformed value; the message names the
     *                                  variable and its allowed values
     */
    public static NcclSettings parse(Map<String, String> env) {
        EnumMap<NcclVariable, Object> values = new EnumMap<>(NcclVariable.class);
        Map<String, String> raw = new LinkedHashMap<>();
        if (env != null) {
            env.keySet().stream().sorted().forEach(name -> {
                NcclVariable v = NcclVariable.of(name);
                values.put(v, v.parse(env.get(name)));
                raw.put(name, env.get(name));
            });
        }
        if (values.containsKey(NcclVariable.NCCL_MIN_NCHANNELS) && values.containsKey(NcclVariable.NCCL_MIN_CTAS)
                || values.containsKey(NcclVariable.NCCL_MAX_NCHANNELS)
                && values.containsKey(NcclVariable.NCCL_MAX_CTAS)) {
            throw new IllegalArgumentException("set either NCCL_MIN/MAX_NCHANNELS or NCCL_MIN/MAX_CTAS, not both"
                    + " (NCCL_*_CTAS replaces the deprecated NCCL_*_NCHANNELS)");
        }
        NcclSettings s = new NcclSettings(values, raw);
        if (s.minChannels() > s.maxChannels()) {
            throw new IllegalArgumentException("minimum channels (" + s.minChannels() + ") exceed maximum channels ("
                    + s.maxChannels() + "); allowed: NCCL_MIN_CTAS <= NCCL_MAX_CTAS");
        }
        return s;
    }

    /** @return the variables as given (validated), in name order */
    public Map<String, String> asMap() {
        return raw;
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

    /** @return NCCL_ALGO, parsed */
    @SuppressWarnings("unchecked")
    public AlgoProtoFilter<Algorithm> algo() {
        Object o = values.get(NcclVariable.NCCL_ALGO);
        return o == null ? AlgoProtoFilter.defaults(Algorithm.class) : (AlgoProtoFilter<Algorithm>) o;
    }

    /** @return NCCL_PROTO, parsed */
    @SuppressWarnings("unchecked")
    public AlgoProtoFilter<Protocol> proto() {
        Object o = values.get(NcclVariable.NCCL_PROTO);
        return o == null ? AlgoProtoFilter.defaults(Protocol.class) : (AlgoProtoFilter<Protocol>) o;
    }

    /** @return NCCL_MIN_CTAS or NCCL_MIN_NCHANNELS (default 1) */
    public int minChannels() {
        return intOr(NcclVariable.NCCL_MIN_CTAS, intOr(NcclVariable.NCCL_MIN_NCHANNELS, 1));
    }

    /** @return NCCL_MAX_CTAS or NCCL_MAX_NCHANNELS (default 64 = MAXCHANNELS) */
    public int maxChannels() {
        return intOr(NcclVariable.NCCL_MAX_CTAS, intOr(NcclVariable.NCCL_MAX_NCHANNELS, 64));
    }

    /** @return NCCL_NTHREADS if set */
    public Optional<Integer> nThreads() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_NTHREADS));
    }

    /** @return NCCL_LL128_NTHREADS (default 640) */
    public int ll128NThreads() {
        return intOr(NcclVariable.NCCL_LL128_NTHREADS, 640);
    }

    /** @return Simple buffer per connection, bytes: NCCL_BUFFSIZE (default 4 MiB) */
    public long buffSize() {
        Object o = values.get(NcclVariable.NCCL_BUFFSIZE);
        return o == null ? 4L << 20 : (Long) o;
    }

    /** @return LL buffer per connection, bytes (default 512 KiB) */
    public long llBuffSize() {
        Object o = values.get(NcclVariable.NCCL_LL_BUFFSIZE);
        return o == null ? 512L << 10 : (Long) o;
    }

    /** @return LL128 buffer per connection, bytes (default 4,915,200) */
    public long ll128BuffSize() {
        Object o = values.get(NcclVariable.NCCL_LL128_BUFFSIZE);
        return o == null ? 4_915_200L : (Long) o;
    }

    /** @return NCCL_NVLS_ENABLE: 0, 1 or 2 (auto, default) */
    public int nvlsEnable() {
        return intOr(NcclVariable.NCCL_NVLS_ENABLE, 2);
    }

    /** @return NCCL_NVLS_NCHANNELS if set */
    public Optional<Integer> nvlsNChannels() {
        return Optional.ofNullable((Integer) values.get(NcclVariable.NCCL_NVLS_NCHANNELS));
    }

    /** @return NCCL_P2P_LEVEL if set (NCCL's default is PXB) */
    public Optional<PathType> p2pLevel() {
        return Optional.ofNullable((PathType) values.get(NcclVariable.NCCL_P2P_LEVEL));
    }

    /** @return true when NCCL_P2P_DISABLE=1 */
    public boolean p2pDisable() {
        return intOr(NcclVariable.NCCL_P2P_DISABLE, 0) == 1;
    }

    /** @return NCCL_NET_GDR_LEVEL if set */
    public Optional<PathType> netGdrLevel() {
        return Optional.ofNullable((PathType) values.get(NcclVariable.NCCL_NET_GDR_LEVEL));
    }

    /** @return NCCL_CROSS_NIC: 0, 1 or 2 (default) */
    public int crossNic() {
        return intOr(NcclVariable.NCCL_CROSS_NIC, 2);
    }

    /** @return true when NCCL_PXN_DISABLE=1 */
    public boolean pxnDisable() {
        return intOr(NcclVariable.NCCL_PXN_DISABLE, 0) == 1;
    }

    /** @return NCCL_PAT_ENABLE: 0, 1 or 2 (auto, default) */
    public int patEnable() {
        return intOr(NcclVariable.NCCL_PAT_ENABLE, 2);
    }

    /** @return true when NCCL_COLLNET_ENABLE=1 */
    public boolean collnetEnable() {
        return intOr(NcclVariable.NCCL_COLLNET_ENABLE, 0) == 1;
    }

    /** @return NCCL_COLLNET_NODE_THRESHOLD (default 2) */
    public int collnetNodeThreshold() {
        return intOr(NcclVariable.NCCL_COLLNET_NODE_THRESHOLD, 2);
    }

    /** @return NCCL_NET_OVERHEAD in microseconds, if set (given in nanoseconds) */
    public Optional<Double> netOverheadUs() {
        Object o = values.get(NcclVariable.NCCL_NET_OVERHEAD);
        return o == null ? Optional.empty() : Optional.of((Integer) o / 1000.0);
    }

    /** @return true unless NCCL_LL128_C2C=0 */
    public boolean ll128C2c() {
        return intOr(NcclVariable.NCCL_LL128_C2C, 1) == 1;
    }

    /** @return true when NCCL_NVB_DISABLE=1 */
    public boolean nvbDisable() {
        return intOr(NcclVariable.NCCL_NVB_DISABLE, 0) == 1;
    }

    /** @return NCCL_MIN_P2P_NCHANNELS (default 1) */
    public int minP2pChannels() {
        return intOr(NcclVariable.NCCL_MIN_P2P_NCHANNELS, 1);
    }

    /** @return NCCL_MAX_P2P_NCHANNELS (default 64) */
    public int maxP2pChannels() {
        return intOr(NcclVariable.NCCL_MAX_P2P_NCHANNELS, 64);
    }

    @Override
    public String toString() {
        return raw.isEmpty() ? "NCCL defaults" : raw.toString();
    }
}
