package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import java.util.ArrayList;
import java.util.List;

/**
 * Direct AllToAll as NCCL runs grouped send/receive: each rank sends {@code S/n} to every other rank, peer by
 * peer in NCCL's p2p rounds ({@link #sendPeer}: NCCL 2.30.7 {@code src/init.cc ncclP2pSchedule}), which take the
 * ranks in groups of G local ranks of one node (NCCL_P2P_SCHEDULE_GROUP_SIZE, default NCCL_MAX_DEV_WORK_P2P_PER_BATCH
 * = 8, {@code src/include/device.h}, lowered to divide every node's ranks; one group per node on a single node): the
 * rounds of one group delta send every rank to the G ranks of one other group, so a batch of G rounds is a rank's
 * exchange with one remote node, and the group deltas follow NCCL's quadratic order. Round 0 is the send to self,
 * which moves no data here. NCCL puts up to {@value #ROUNDS_IN_FLIGHT} rounds in flight at once, so one step here
 * holds {@code roundsInFlight} consecutive rounds. Steps are generated on demand ({@link GeneratedSteps}): memory
 * stays linear in {@code n x roundsInFlight} although the schedule has {@code n(n-1)} transfers. Round r uses
 * channel {@code r mod nChannels}. Ranks are grouped by {@link ScheduleRequest#ranksPerHost} (consecutive ranks of
 * one host); ungrouped ranks (1) are one rank per group.
 */
public final class DirectAllToAllSchedule implements ScheduleAlgorithm {

    /** Default rounds in flight: NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8 (NCCL {@code src/include/device.h}). */
    public static final int ROUNDS_IN_FLIGHT = NcclDevice.NCCL_MAX_DEV_WORK_P2P_PER_BATCH;

    private final int roundsInFlight;

    /** Uses {@link #ROUNDS_IN_FLIGHT} rounds in flight. */
    public DirectAllToAllSchedule() {
        this(ROUNDS_IN_FLIGHT);
    }

    /**
     * @param roundsInFlight rounds of peers sent at once, {@code >= 1}
     * @throws IllegalArgumentException when below 1
     */
    public DirectAllToAllSchedule(int roundsInFlight) {
        if (roundsInFlight < 1) {
            throw new IllegalArgumentException("roundsInFlight must be >= 1, got " + roundsInFlight);
        }
        this.roundsInFlight = roundsInFlight;
    }

    @Override
    public String name() {
        return "Direct";
    }

    @Override
    public boolean supports(Collective c) {
        return c == Collective.ALL_TO_ALL;
    }

    @Override
    public Schedule schedule(ScheduleRequest r) {
        checkSupported(r);
        int n = r.nRanks();
        if (!r.movesData()) {
            return scheduleOf(r, List.of());
        }
        double bytes = (double) r.sizeBytes() / n;
        int nCh = r.nChannels();
        int g = groupSize(n, r.ranksPerHost());
        int[] deltas = groupDeltas(n / g);
        int nSteps = (n + roundsInFlight - 1) / roundsInFlight;
        GeneratedSteps steps = new GeneratedSteps(nSteps, s -> {
            int first = s * roundsInFlight;
            int last = Math.min(n - 1, first + roundsInFlight - 1);
            List<Transfer> out = new ArrayList<>((last - first + 1) * n);
            for (int round = first; round <= last; round++) {
                for (int i = 0; i < n; i++) {
                    int peer = sendPeer(i, round, g, deltas);
                    if (peer != i) {
                        out.add(new Transfer(i, peer, bytes, round % nCh));
                    }
                }
            }
            return new Step("rounds " + first + "-" + last, out, 1);
        });
        return scheduleOf(r, steps);
    }

    /**
     * NCCL's group size G (NCCL 2.30.7 {@code src/init.cc ncclP2pSchedule}): {@value #ROUNDS_IN_FLIGHT} on several
     * nodes, the node's ranks on one; lowered to the greatest common divisor with a node's ranks when they are fewer
     * or not a multiple.
     *
     * @param n            ranks
     * @param ranksPerHost consecutive ranks per node (1: ungrouped)
     * @return G, dividing {@code ranksPerHost}
     */
    static int groupSize(int n, int ranksPerHost) {
        int g = n > ranksPerHost ? ROUNDS_IN_FLIGHT : ranksPerHost;
        if (ranksPerHost % g != 0 || ranksPerHost < g) {
            g = gcd(g, ranksPerHost);
        }
        return g;
    }

    /**
     * NCCL's order of group deltas: {@code (x^2 + x) / 2 mod pow2Up(nGroups)} for x = 0, 1, ..., those below
     * nGroups (a permutation of 0 .. nGroups-1; NCCL 2.30.7 {@code ncclP2pSchedule}, "quadratic update"). For 4
     * groups: 0, 1, 3, 2.
     *
     * @param nGroups groups, >= 1
     * @return the deltas in round order
     */
    static int[] groupDeltas(int nGroups) {
        int pow2 = Integer.highestOneBit(nGroups) == nGroups ? nGroups : Integer.highestOneBit(nGroups) << 1;
        int[] out = new int[nGroups];
        int k = 0;
        int delta = 0;
        int round = 0;
        do {
            if (delta < nGroups) {
                out[k++] = delta;
            }
            round++;
            delta = (delta + round) & (pow2 - 1);
        } while (round != pow2);
        return out;
    }

    /**
     * The rank that rank i sends to in a round: round {@code k x G + d} sends to local {@code (local + d) mod G} of
     * group {@code (group + deltas[k]) mod nGroups}, groups being G consecutive ranks.
     *
     * @param i      rank
     * @param round  round, 0 .. n-1 (round 0: self)
     * @param g      group size ({@link #groupSize})
     * @param deltas group deltas ({@link #groupDeltas})
     * @return the peer rank
     */
    static int sendPeer(int i, int round, int g, int[] deltas) {
        int nGroups = deltas.length;
        int group = (i / g + deltas[round / g]) % nGroups;
        return group * g + (i % g + round % g) % g;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
