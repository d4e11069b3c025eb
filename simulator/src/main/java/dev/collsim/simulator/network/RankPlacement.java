package dev.collsim.simulator.network;

import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a job's ranks are placed: a {@link Placement.Policy}, or a hostfile's text (read by the caller, so that file
 * errors are reported where the file is named).
 *
 * @param policy       the policy, or null when a hostfile is given
 * @param hostfileName the hostfile's name as the user gave it (cited in problems), or null
 * @param hostfileText the hostfile's text ({@link Placement#fromHostfile}), or null
 */
public record RankPlacement(Placement.Policy policy, String hostfileName, String hostfileText) {

    /** Contiguous placement, the default. */
    public static final RankPlacement CONTIGUOUS = new RankPlacement(Placement.Policy.CONTIGUOUS, null, null);

    /** @throws IllegalArgumentException unless exactly one of policy and hostfile (name and text) is given */
    public RankPlacement {
        if ((policy == null) == (hostfileText == null) || (hostfileText == null) != (hostfileName == null)) {
            throw new IllegalArgumentException("give a placement policy or a hostfile's name and text, not both");
        }
    }

    /**
     * @param name the hostfile's name
     * @param text its text
     * @return a hostfile placement
     */
    public static RankPlacement hostfile(String name, String text) {
        return new RankPlacement(null, Objects.requireNonNull(name, "name"), Objects.requireNonNull(text, "text"));
    }

    /** @return {@code contiguous}, {@code round-robin}, {@code random} or {@code hostfile:NAME} */
    public String describe() {
        return policy == null ? "hostfile:" + hostfileName : policy.name().toLowerCase(Locale.ROOT)
                .replace('_', '-');
    }

    /**
     * @param pool      free GPUs
     * @param nRanks    ranks to place
     * @param seed      seed of random placement
     * @param hostCount hosts in the cluster (for the hostfile's messages)
     * @return GPU of each rank
     * @throws InputException           on a bad hostfile line
     * @throws PlacementException       when the pool or the hostfile offers fewer than nRanks GPUs
     */
    public List<Gpu> place(Collection<Gpu> pool, int nRanks, long seed, int hostCount) throws InputException {
        if (policy != null) {
            return Placement.place(policy, pool, nRanks, seed);
        }
        List<Gpu> g = Placement.fromHostfile(hostfileName, hostfileText, pool, hostCount);
        if (g.size() < nRanks) {
            throw new PlacementException("hostfile " + hostfileName + " offers " + g.size() + " GPUs but "
                    + nRanks + " ranks are needed");
        }
        return g.subList(0, nRanks);
    }
}
