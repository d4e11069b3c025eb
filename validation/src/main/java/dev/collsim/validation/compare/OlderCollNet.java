package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.Map;
import java.util.Optional;

/**
 * CollNet before NCCL 2.14 is one algorithm, {@code NCCL_ALGO_COLLNET} ({@code src/include/devcomm.h},
 * {@code #define NCCL_ALGO_COLLNET 2} at tags v2.8.4-1 to v2.13.4-1), and which one it is depends on the release:
 * <ul>
 *   <li>up to 2.8 the chain: the channel's {@code collTree} is a {@code struct ncclTree} (v2.8.4-1
 *       {@code src/include/devcomm.h} line 180) whose kernels run the tree up and down
 *       ({@code ncclPatternCollTreeUp}/{@code Down}, {@code src/enqueue.cc}), the algorithm 2.14 calls
 *       CollNetChain;</li>
 *   <li>2.9 to 2.13 the direct one: {@code collTree} is a {@code struct ncclDirect} from v2.9.6-1 (the first 2.9 tag,
 *       {@code src/include/devcomm.h} line 195), whose kernel scatters to the node's heads, reduces through the
 *       network and gathers ({@code src/collectives/device/all_reduce.h}, "Oneshot CollNet only supports Simple",
 *       v2.10.3-1 {@code src/graph/tuning.cc} line 133), the algorithm 2.14 calls CollNetDirect.</li>
 * </ul>
 * v2.14.3-1 defines both ({@code NCCL_ALGO_COLLNET_DIRECT 2}, {@code NCCL_ALGO_COLLNET_CHAIN 3}). collsim's tuning
 * (2.18's rules for such a run) offers both, so a CollNet run of an older NCCL is modelled with NCCL_ALGO excluding
 * the one its NCCL did not have. A run that sets NCCL_ALGO itself keeps it. The release is the one the run is taken
 * to have used ({@link HeaderNcclVersion#release}: stated, else dated). Stateless.
 */
public final class OlderCollNet {

    /** First NCCL 2 minor release whose CollNet is the direct algorithm (v2.9.6-1 {@code src/include/devcomm.h}). */
    static final int FIRST_DIRECT_MINOR = 9;
    /** First NCCL 2 minor release with both CollNet algorithms (v2.14.3-1 {@code src/include/devcomm.h}). */
    static final int FIRST_BOTH_MINOR = 14;

    private OlderCollNet() {
    }

    /**
     * @param d        the dataset
     * @param settings the run's settings; {@code NCCL_ALGO=^CollNetDirect} (up to 2.8) or {@code ^CollNetChain}
     *                 (2.9-2.13) is added when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> apply(Dataset d, Map<String, String> settings) {
        String collnet = settings.get("NCCL_COLLNET_ENABLE");
        NcclRelease r = HeaderNcclVersion.release(d);
        Optional<String> other = missing(r);
        if (collnet == null || !"1".equals(collnet.strip()) || settings.containsKey("NCCL_ALGO") || other.isEmpty()) {
            return Optional.empty();
        }
        boolean chain = r.before(FIRST_DIRECT_MINOR);
        settings.put("NCCL_ALGO", "^" + other.get());
        return Optional.of("NCCL " + r + " has one CollNet algorithm, the one 2.14 calls "
                + (chain ? "CollNetChain (to 2.8)" : "CollNetDirect (2.9-2.13)") + ": modelled as NCCL_ALGO=^"
                + other.get());
    }

    /**
     * @param r the run's release
     * @return the CollNet algorithm (NCCL 2.14's name) that release did not have: CollNetDirect up to 2.8,
     *         CollNetChain in 2.9-2.13; empty from 2.14 or when the release is not known
     */
    static Optional<String> missing(NcclRelease r) {
        if (!r.known() || !r.before(FIRST_BOTH_MINOR)) {
            return Optional.empty();
        }
        return Optional.of(r.before(FIRST_DIRECT_MINOR) ? "CollNetDirect" : "CollNetChain");
    }
}
