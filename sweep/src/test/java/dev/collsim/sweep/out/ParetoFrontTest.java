package dev.collsim.sweep.out;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.Target;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Pareto front and the cheapest design per target, on points made up by hand. */
class ParetoFrontTest {

    private static PointResult plan(long point, double cost, double stepMs, String status) {
        return new PointResult(point, point, "job", "plan", "d" + point, List.of(), status, "", 8, 1, 0, Double.NaN,
                Double.NaN, "", stepMs, 1e6 / stepMs, Double.NaN, "", 0, 0, 0, cost, 0, cost, 0);
    }

    @Test
    void frontKeepsOnlyPointsNoOtherBeatsOnCostAndTime() {
        // (cost, time): 0 (10, 100), 1 (20, 50), 2 (20, 60) beaten by 1, 3 (30, 70) beaten by 1, 4 (40, 10),
        // 5 (5, 500), 6 (1, 1) does not fit so takes no part
        List<PointResult> rows = List.of(plan(0, 10, 100, PointResult.OK), plan(1, 20, 50, PointResult.OK),
                plan(2, 20, 60, PointResult.OK), plan(3, 30, 70, PointResult.OK), plan(4, 40, 10, PointResult.OK),
                plan(5, 5, 500, PointResult.OK), plan(6, 1, 1, PointResult.NO_FIT));
        assertEquals(List.of(5L, 0L, 1L, 4L), ParetoFront.of(rows).get("job").stream().map(PointResult::point)
                .toList());
    }

    @Test
    void cheapestMeetingTheTarget() {
        List<PointResult> rows = List.of(plan(0, 10, 100, PointResult.OK), plan(1, 20, 50, PointResult.OK),
                plan(4, 40, 10, PointResult.OK));
        // step <= 60 ms: points 1 and 4 meet it; 1 is cheaper
        TargetResult r = TargetResult.of(List.of(new Target("fast", null, Double.NaN, 60, Double.NaN, Double.NaN)),
                rows).get(0);
        assertEquals(1, r.point());
        assertEquals(2, r.meeting());
        // tokens/s = 1e6 / step: >= 1e6 / 5 needs step <= 5 ms, which no point has
        assertEquals(-1, TargetResult.of(List.of(new Target("none", null, 2e5, Double.NaN, Double.NaN, Double.NaN)),
                rows).get(0).point());
    }
}
