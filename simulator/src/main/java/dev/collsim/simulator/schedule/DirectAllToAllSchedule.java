package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * Direct AllToAll as NCCL runs grouped send/receive: each rank sends {@code S/n} to every other rank, peer by
 * peer in rounds; in round r ({@code 1 <= r < n}) rank i sends to {@code (i + r) mod n}. NCCL puts up to
 * {@value #ROUNDS_IN_FLIGHT} rounds in flight at once (NCCL 2.2x {@code src/init.cc}: NCCL_P2P_SCHEDULE_GROUP_SIZE
 * defaults to NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8, {@code src/include/device.h}), so one step here holds
 * {@code roundsInFlight} consecutive rounds. Steps are generated on demand ({@link GeneratedSteps}): memory
 * stays linear in {@code n x roundsInFlight} although the schedule has {@code n(n-1)} transfers. Round r uses
 * channel {@code r mod nChannels}.
 */
public final class DirectAllToAllSchedule implements ScheduleAlgorithm {

    /** Default rounds in flight: NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8 (NCCL {@code src/include/device.h}). */
    public static final int ROUNDS_IN_FLIGHT = 8;

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
        int nSteps = (n - 1 + roundsInFlight - 1) / roundsInFlight;
        GeneratedSteps steps = new GeneratedSteps(nSteps, s -> {
            int first = 1 + s * roundsInFlight;
            int last = Math.min(n - 1, first + roundsInFlight - 1);
            List<Transfer> out = new ArrayList<>((last - first + 1) * n);
            for (int round = first; round <= last; round++) {
                for (int i = 0; i < n; i++) {
                    out.add(new Transfer(i, (i + round) % n, bytes, round % nCh));
                }
            }
            return new Step("rounds " + first + "-" + last, out, 1);
        });
        return scheduleOf(r, steps);
    }
}
