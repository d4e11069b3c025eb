package dev.collsim.nccl.env;

import static dev.collsim.nccl.NcclDevice.MAXCHANNELS;
import static dev.collsim.nccl.NcclDevice.NCCL_LL128_MAX_NTHREADS;
import static dev.collsim.nccl.NcclDevice.NCCL_SIMPLE_MAX_NTHREADS;
import static dev.collsim.nccl.NcclDevice.WARP_SIZE;

import dev.collsim.io.NearestName;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.topology.PathType;
import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * The NCCL environment variables collsim understands, with their allowed values and NCCL's defaults
 * (NCCL 2.30.7 {@code docs/userguide/source/env.rst}, {@code src/graph/tuning.cc}, {@code src/init.cc},
 * {@code src/graph/paths.cc}; collsim's fact sheet §4). Each constant parses and validates its value.
 */
public enum NcclVariable {
    /** Algorithms allowed per function; 2.24+ syntax. */
    NCCL_ALGO("[func:]list;func:list with Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT"
            + " (case-insensitive, ^ excludes)", "all enabled", "src/graph/tuning.cc",
            (n, v) -> AlgoProtoFilter.parse(n, v, Algorithm.class, Algorithm::parse, Algorithm.allowed())),
    /** Protocols allowed per function; 2.24+ syntax. */
    NCCL_PROTO("[func:]list;func:list with LL, LL128, Simple (case-insensitive, ^ excludes)",
            "all enabled, LL128 auto", "src/graph/tuning.cc",
            (n, v) -> AlgoProtoFilter.parse(n, v, Protocol.class, Protocol::parse, Protocol.allowed())),
    /** Minimum runtime channels (deprecated name of NCCL_MIN_CTAS). */
    NCCL_MIN_NCHANNELS("an integer in [1, 64]", "1", "src/graph/connect.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Maximum runtime channels (deprecated name of NCCL_MAX_CTAS). */
    NCCL_MAX_NCHANNELS("an integer in [1, 64]", "64", "src/graph/connect.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Minimum CTAs (= runtime channels). */
    NCCL_MIN_CTAS("an integer in [1, 64]", "1", "src/init.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Maximum CTAs (= runtime channels). */
    NCCL_MAX_CTAS("an integer in [1, 64]", "64", "src/init.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Threads per block for LL and Simple. */
    NCCL_NTHREADS("a multiple of 32 in [64, 512]", "512 (256 on slow PCIe rings)", "src/graph/tuning.cc",
            (n, v) -> multipleOf32(n, v, 2 * WARP_SIZE, NCCL_SIMPLE_MAX_NTHREADS)),
    /** Threads per block for LL128. */
    NCCL_LL128_NTHREADS("a multiple of 32 in [160, 640]", "640", "src/graph/tuning.cc",
            (n, v) -> multipleOf32(n, v, NCCL_LL128_MAX_NTHREADS / 4, NCCL_LL128_MAX_NTHREADS)),
    /** Simple buffer per connection, bytes. */
    NCCL_BUFFSIZE("a size in bytes >= 65536, a whole number, decimal or 0x hex (NCCL reads no K/M/G suffix)",
            "4194304 (4 MiB)", "src/init.cc", (n, v) -> bytesAtLeast(n, v, 65536)),
    /** LL buffer per connection, bytes. */
    NCCL_LL_BUFFSIZE("a size in bytes >= 4096, a whole number, decimal or 0x hex (NCCL reads no K/M/G suffix)",
            "524288 (512 KiB)", "src/init.cc", (n, v) -> bytesAtLeast(n, v, 4096)),
    /** LL128 buffer per connection, bytes. */
    NCCL_LL128_BUFFSIZE("a size in bytes >= 65536, a whole number, decimal or 0x hex (NCCL reads no K/M/G suffix)",
            "4915200", "src/init.cc", (n, v) -> bytesAtLeast(n, v, 65536)),
    /** Point-to-point chunk over the network, bytes (one network send of a p2p operation). */
    NCCL_P2P_NET_CHUNKSIZE("a size in bytes >= 512 (the Simple grain), a whole number, decimal or 0x hex",
            "131072 (128 KiB)", "src/init.cc", (n, v) -> bytesAtLeast(n, v, 512)),
    /**
     * Host FIFO of kernel work, bytes; 0 puts every kernel's work in its 4 KiB kernel arguments, so a large group of
     * point-to-point operations is cut into several kernels (NCCL 2.27.3 {@code src/enqueue.cc testBudget}).
     */
    NCCL_WORK_FIFO_BYTES("a size in bytes >= 0, a whole number, decimal or 0x hex; 0 or a power of two (NCCL ignores"
            + " any other value with a warning and keeps the default)", "1048576 (1 MiB)", "src/init.cc",
            (n, v) -> bytesAtLeast(n, v, 0)),
    /** NVLink SHARP: 0 off, 1 on, 2 auto. */
    NCCL_NVLS_ENABLE("0, 1 or 2 (auto)", "2", "src/transport/nvls.cc", (n, v) -> intIn(n, v, 0, 2)),
    /** NVLS chunk, bytes: the NVLS AllReduce chunk before its size steps and the NVLSTree chunk from 2.21 on. */
    NCCL_NVLS_CHUNKSIZE("a size in bytes >= 512 (the Simple grain), a whole number, decimal or 0x hex",
            "131072 (128 KiB; 2.30.7 tunes it on several sm100 nodes)", "src/transport/nvls.cc",
            (n, v) -> bytesAtLeast(n, v, 512)),
    /** Largest NVLSTree chunk, bytes, from NCCL 2.20 (-2: 64 KiB on 4 or more nodes, else the chunk). */
    NCCL_NVLSTREE_MAX_CHUNKSIZE("-2 (auto) or a size in bytes >= 512, a whole number, decimal or 0x hex",
            "-2 (64 KiB on 4 or more nodes, else the NVLS chunk)", "src/enqueue.cc (2.20-2.26), src/transport/nvls.cc",
            (n, v) -> "-2".equals(v.trim()) ? Long.valueOf(-2) : bytesAtLeast(n, v, 512)),
    /** NVLS runtime channels. */
    NCCL_NVLS_NCHANNELS("an integer in [1, 64]", "16 (sm90), 24/32 (sm100)", "src/init.cc",
            (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Farthest path type over which GPUs use peer-to-peer. */
    NCCL_P2P_LEVEL(PathLevel.ALLOWED, "PXB", "src/graph/paths.cc", PathLevel::parse),
    /** 1 disables peer-to-peer between GPUs. */
    NCCL_P2P_DISABLE("0 or 1", "0", "src/graph/paths.cc", (n, v) -> intIn(n, v, 0, 1)),
    /**
     * P2P read (1: the receiver loads the Simple buffer from the sender's GPU) or write (0: the sender stores into
     * the receiver's); unset, NCCL reads between sm80 GPUs on an NVLink path and writes elsewhere (NCCL 2.28-2.30
     * {@code src/transport/p2p.cc p2pGetInfo}: {@code NCCL_PARAM(P2pReadEnable, "P2P_READ_ENABLE", -2)} replaces
     * {@code ncclTopoCheckP2p}'s choice when not -2). NCCL parses it with strtoll ({@code src/misc/param.cc}), so it
     * would take any other integer as read and text without digits as write; collsim accepts only 0 and 1.
     */
    NCCL_P2P_READ_ENABLE("0 (P2P write) or 1 (P2P read)", "unset: read between sm80 (Ampere) GPUs on an NVLink path,"
            + " write elsewhere", "src/transport/p2p.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** Farthest NIC-GPU path type for GPUDirect RDMA. */
    NCCL_NET_GDR_LEVEL(PathLevel.ALLOWED, "P2C (PXB with NCCL_NET_GDR_C2C=0)", "src/graph/paths.cc",
            PathLevel::parse),
    /** 1 (default) lets a NIC hanging off the CPU of a C2C-attached GPU use GPU Direct RDMA (default level P2C). */
    NCCL_NET_GDR_C2C("0 or 1", "1", "src/graph/paths.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** GPU Direct RDMA for sends: 0 stages sends in host memory, 1 reads GPU memory directly. */
    NCCL_NET_GDR_READ("0 or 1", "1 on sm80 and newer; before sm80 1 only with an NVLink peer", "src/graph/paths.cc",
            (n, v) -> intIn(n, v, 0, 1)),
    /** Rings may use different NICs on different hosts: 0, 1 or 2 (auto). */
    NCCL_CROSS_NIC("0, 1 or 2 (auto)", "2", "src/graph/search.cc", (n, v) -> intIn(n, v, 0, 2)),
    /** 1 disables PXN (sending through a peer GPU's NIC). */
    NCCL_PXN_DISABLE("0 or 1", "0", "src/graph/paths.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** PAT algorithm: 0 off, 1 on, 2 auto (1 GPU per host). */
    NCCL_PAT_ENABLE("0, 1 or 2 (auto)", "2", "src/graph/tuning.cc", (n, v) -> intIn(n, v, 0, 2)),
    /** CollNet (SHARP) algorithms: 0 off, 1 on (needs a CollNet plugin). */
    NCCL_COLLNET_ENABLE("0 or 1", "0", "src/init.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** Minimum hosts for CollNet. */
    NCCL_COLLNET_NODE_THRESHOLD("an integer >= 1", "2", "src/init.cc", (n, v) -> intIn(n, v, 1, Integer.MAX_VALUE)),
    /** Inter-host ring step overhead, nanoseconds. */
    NCCL_NET_OVERHEAD("an integer number of nanoseconds >= 0", "1000 (Intel), 2000 (AMD)", "src/graph/tuning.cc",
            (n, v) -> intIn(n, v, 0, Integer.MAX_VALUE)),
    /** LL128 allowed up to PXN on Hopper and newer. */
    NCCL_LL128_C2C("0 or 1", "1", "src/graph/tuning.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** 1 disables NVLink through an intermediate GPU (NVB). */
    NCCL_NVB_DISABLE("0 or 1", "0", "src/graph/paths.cc", (n, v) -> intIn(n, v, 0, 1)),
    /** Minimum peer-to-peer channels. */
    NCCL_MIN_P2P_NCHANNELS("an integer in [1, 64]", "1", "src/graph/paths.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Maximum peer-to-peer channels. */
    NCCL_MAX_P2P_NCHANNELS("an integer in [1, 64]", "64", "src/graph/paths.cc", (n, v) -> intIn(n, v, 1, MAXCHANNELS)),
    /** Helper threads per connection of NCCL's socket transport (0: the proxy thread itself, one socket). */
    NCCL_SOCKET_NTHREADS("an integer in [0, 16] (0: no helper thread, the proxy thread moves the data on one socket)",
            "1 stream: AWS 2, GCP gVNIC 4, others 0 (the proxy thread)", "src/transport/net_socket.cc",
            (n, v) -> intIn(n, v, 0, 16)),
    /** Sockets per helper thread of NCCL's socket transport. */
    NCCL_NSOCKS_PERTHREAD("an integer in [1, 64] (NCCL lowers it to 64 / NCCL_SOCKET_NTHREADS when the product"
            + " exceeds 64)", "AWS 8, others 1", "src/transport/net_socket.cc", (n, v) -> intIn(n, v, 1, 64)),
    /** Logging level: accepted, no effect on a prediction. */
    NCCL_DEBUG("VERSION, WARN, INFO, TRACE or ABORT (no effect on a prediction)", "unset", "src/debug.cc",
            (n, v) -> oneOf(n, v, "VERSION", "WARN", "INFO", "TRACE", "ABORT", "NONE")),
    /** Logging subsystems: accepted, no effect on a prediction. */
    NCCL_DEBUG_SUBSYS("a comma list of subsystems (no effect on a prediction)", "INIT,BOOTSTRAP,ENV", "src/debug.cc",
            (n, v) -> v);

    private final String allowed;
    private final String defaultText;
    private final String source;
    private final BiFunction<String, String, Object> parser;

    NcclVariable(String allowed, String defaultText, String source, BiFunction<String, String, Object> parser) {
        this.allowed = allowed;
        this.defaultText = defaultText;
        this.source = source;
        this.parser = parser;
    }

    /** @return the allowed values, in words */
    public String allowed() {
        return allowed;
    }

    /** @return NCCL's default, in words */
    public String defaultText() {
        return defaultText;
    }

    /** @return the NCCL 2.30.7 source file that reads the variable, e.g. {@code src/graph/paths.cc} */
    public String source() {
        return source;
    }

    /**
     * Parses and validates a value.
     *
     * @param value the text
     * @return the parsed value (Integer, Long, PathType or AlgoProtoFilter)
     * @throws IllegalArgumentException naming the variable, the value and the allowed values
     */
    public Object parse(String value) {
        return parser.apply(name(), value == null ? "" : value.trim());
    }

    /**
     * The variable of a name, for a prediction: only the variables collsim models are accepted.
     *
     * @param name a variable name, case-sensitive as NCCL reads it
     * @return the variable
     * @throws IllegalArgumentException for a name NCCL does not read (a typo) or one NCCL reads that collsim does
     *                                  not model (a prediction could not honour it); the message names the
     *                                  variable and the modelled ones
     */
    public static NcclVariable of(String name) {
        for (NcclVariable v : values()) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        StringBuilder known = new StringBuilder();
        List<String> names = new ArrayList<>();
        for (NcclVariable v : values()) {
            known.append(known.length() == 0 ? "" : ", ").append(v.name());
            names.add(v.name());
        }
        String why = isNcclName(name) ? "NCCL variable '" + name + "' is not modelled by collsim, so a prediction"
                + " cannot honour it" : "unknown NCCL variable '" + name + "' (NCCL 2.30.7 reads no variable of"
                + " that name" + NearestName.hint(name, names) + ")";
        // the transport NCCL uses between hosts is the cluster's network class, not a setting (NCCL 2.30.7
        // src/transport/net.cc: NCCL_IB_DISABLE=1 or NCCL_NET=Socket leaves NCCL its socket transport)
        String hint = "NCCL_IB_DISABLE".equals(name) || "NCCL_NET".equals(name) ? "; to predict NCCL's socket"
                + " transport give the cluster's network instead: --network socket (a report variant: network: socket)"
                : "";
        throw new IllegalArgumentException(why + hint + "; collsim models: " + known);
    }

    /**
     * Whether a name a user gave (a pasted environment) is passed over as not modelled rather than refused: an
     * {@code NCCL_*} name that is none of this enum's, that is not within {@link NearestName}'s distance of one (so
     * {@code NCCL_ALOG} stays an error with its did-you-mean {@code NCCL_ALGO}), and that is not one of the socket
     * switches {@code NCCL_IB_DISABLE} and {@code NCCL_NET} (their refusal says how to predict sockets:
     * {@code --network socket}). E.g. {@code NCCL_IB_HCA}, {@code NCCL_SOCKET_IFNAME}.
     *
     * @param name a variable name
     * @return true for a name a prediction may leave out with a warning
     */
    public static boolean passedOver(String name) {
        if (name == null || !name.startsWith("NCCL_") || "NCCL_IB_DISABLE".equals(name) || "NCCL_NET".equals(name)) {
            return false;
        }
        List<String> names = new ArrayList<>();
        for (NcclVariable v : values()) {
            if (v.name().equals(name)) {
                return false;
            }
            names.add(v.name());
        }
        return NearestName.of(name, names).isEmpty();
    }

    /**
     * @param name a variable name
     * @return true when NCCL 2.30.7 reads a variable of this name, modelled by collsim or not (see
     *         {@link NcclNames})
     */
    public static boolean isNcclName(String name) {
        return NcclNames.contains(name);
    }

    /**
     * Checks one setting for a process that runs NCCL (the executor's {@code --env}): a modelled variable must
     * have a value this enum accepts, as for a prediction; a variable NCCL reads but collsim does not model
     * (e.g. NCCL_IB_HCA, NCCL_SOCKET_IFNAME) passes unchecked, since NCCL itself will read it; any other
     * {@code NCCL_*} name is refused with the message {@link #of} gives a prediction.
     *
     * @param name  the variable name
     * @param value its value
     * @throws IllegalArgumentException for an unknown name or a bad value of a modelled variable
     */
    public static void checkForRun(String name, String value) {
        if (!isNcclName(name)) {
            of(name);
        }
        for (NcclVariable v : values()) {
            if (v.name().equals(name)) {
                v.parse(value);
            }
        }
    }

    private static Object intIn(String name, String v, int lo, int hi) {
        try {
            int x = Integer.parseInt(v);
            if (x >= lo && x <= hi) {
                return x;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw bad(name, v, NcclVariable.valueOf(name).allowed);
    }

    private static Object multipleOf32(String name, String v, int lo, int hi) {
        int x = (Integer) intIn(name, v, lo, hi);
        if (x % WARP_SIZE != 0) {
            throw bad(name, v, NcclVariable.valueOf(name).allowed);
        }
        return x;
    }

    /**
     * A buffer size as NCCL reads it: {@code NCCL_PARAM} values go through {@code ncclLoadParam}, which calls
     * {@code strtoll(str, nullptr, 0)} (NCCL 2.30.7 {@code src/misc/param.cc}), so {@code 8M} is 8 bytes to NCCL.
     * A K/M/G suffix is therefore refused with the number NCCL would need, rather than read the way a user means it.
     */
    private static Object bytesAtLeast(String name, String v, long min) {
        String t = v.trim();
        long b;
        try {
            b = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            String meant = "";
            try {
                meant = "; for " + t + " write " + DataSize.parseBytes(t);
            } catch (IllegalArgumentException notASize) {
                // not a size with a suffix either
            }
            throw new IllegalArgumentException(name + "=" + v + ": NCCL reads this variable as a plain integer"
                    + " (strtoll, src/misc/param.cc), so a suffix is ignored" + meant + "; allowed: "
                    + NcclVariable.valueOf(name).allowed);
        }
        if (b < min) {
            throw bad(name, v, NcclVariable.valueOf(name).allowed);
        }
        return b;
    }

    private static Object oneOf(String name, String v, String... options) {
        for (String o : options) {
            if (o.equalsIgnoreCase(v)) {
                return o;
            }
        }
        throw bad(name, v, NcclVariable.valueOf(name).allowed);
    }

    static IllegalArgumentException bad(String name, String value, String allowed) {
        return new IllegalArgumentException(name + "='" + value + "' is not valid; allowed: " + allowed);
    }

    /** NCCL_P2P_LEVEL / NCCL_NET_GDR_LEVEL values (NCCL 2.30.7 {@code src/graph/paths.cc}). */
    static final class PathLevel {
        static final String ALLOWED = "LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS (case-insensitive)"
                + " or a legacy integer 0-5 (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 SYS, 5 SYS)";

        private PathLevel() {
        }

        static Object parse(String name, String v) {
            String k = v.toUpperCase(Locale.ROOT);
            switch (k) {
                case "0": return PathType.LOC;
                case "1": return PathType.PIX;
                case "2": return PathType.PXB;
                case "3": return PathType.PHB;
                case "4": case "5": return PathType.SYS;
                default: break;
            }
            for (PathType t : PathType.values()) {
                if (t.name().equals(k) && t != PathType.NET && t != PathType.DIS) {
                    return t;
                }
            }
            throw bad(name, v, ALLOWED);
        }
    }
}
