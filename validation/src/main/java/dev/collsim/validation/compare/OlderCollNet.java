package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.Map;
import java.util.Optional;

/**
 * CollNet before NCCL 2.14 is one algorithm, the chain: NCCL 2.8 to 2.13 define a single {@code NCCL_ALGO_COLLNET}
 * ({@code src/include/devcomm.h}, {@code #define NCCL_ALGO_COLLNET 2} at tags v2.8.4-1, v2.12.7-1, v2.13.4-1) whose
 * kernels run the collective tree up and down ({@code ncclPatternCollTreeUp}/{@code Down}, v2.8.4-1
 * {@code src/enqueue.cc}), the algorithm 2.14 renamed CollNetChain; CollNetDirect ({@code NCCL_ALGO_COLLNET_DIRECT 2},
 * {@code NCCL_ALGO_COLLNET_CHAIN 3}) first appears at v2.14.3-1. collsim's tuning (2.18's rules for such a run) offers
 * both, so a run of an older NCCL with CollNet enabled is modelled with {@code NCCL_ALGO=^CollNetDirect}: every
 * algorithm but the one its NCCL did not have. A run that sets NCCL_ALGO itself keeps it. The release is the one the
 * run is taken to have used ({@link HeaderNcclVersion#release}: stated, else dated). Stateless.
 */
public final class OlderCollNet {

    /** First NCCL 2 minor release with CollNetDirect (v2.14.3-1 {@code src/include/devcomm.h}). */
    static final int FIRST_DIRECT_MINOR = 14;

    private OlderCollNet() {
    }

    /**
     * @param d        the dataset
     * @param settings the run's settings; {@code NCCL_ALGO=^CollNetDirect} is added when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> apply(Dataset d, Map<String, String> settings) {
        String collnet = settings.get("NCCL_COLLNET_ENABLE");
        NcclRelease r = HeaderNcclVersion.release(d);
        if (collnet == null || !"1".equals(collnet.strip()) || settings.containsKey("NCCL_ALGO") || !r.known()
                || !r.before(FIRST_DIRECT_MINOR)) {
            return Optional.empty();
        }
        settings.put("NCCL_ALGO", "^CollNetDirect");
        return Optional.of("NCCL " + r + " has CollNet as the chain only (CollNetDirect is new in 2.14): modelled as"
                + " NCCL_ALGO=^CollNetDirect");
    }
}
