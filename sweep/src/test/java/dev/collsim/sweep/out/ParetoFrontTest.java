package dev.collsim.sweep.out;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.GridAxis;
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
                rows, List.of()).get(0);
        assertEquals(1, r.point());
        assertEquals(2, r.meeting());
        // tokens/s = 1e6 / step: >= 1e6 / 5 needs step <= 5 ms, which no point has
        assertEquals(-1, TargetResult.of(List.of(new Target("none", null, 2e5, Double.NaN, Double.NaN, Double.NaN)),
                rows, List.of()).get(0).point());
    }

    private static PointResult design(long point, String hosts, String backend, double cost, double stepMs,
            String status) {
        return new PointResult(point, point, "job", "plan", "hosts=" + hosts + " backend=" + backend,
                List.of(hosts, backend), status, "", 8, 1, 0, Double.NaN, Double.NaN, "", stepMs, 1e6 / stepMs,
                Double.NaN, "", 0, 0, 0, cost, 0, cost, 0);
    }

    /**
     * A grid with a backend axis: a design meets a target only under every backend, with its slower point's figures.
     * Step <= 60 ms: hosts=1 (cost 10) takes 50 ms analytical but 80 ms flow, so it misses; hosts=2 (cost 20) takes
     * 40 and 55 ms and meets it, shown with its flow point (3, 55 ms); hosts=4 (cost 30) meets it analytically but its
     * flow point failed, so it does not count. One design meets it, not the four analytical-or-flow points that do.
     */
    @Test
    void aDesignMeetsATargetOnlyUnderEveryBackendOfTheGrid() {
        List<GridAxis> axes = List.of(new GridAxis("hosts", List.of("1", "2", "4"), List.of("1", "2", "4")),
                new GridAxis("backend", List.of("analytical", "flow"), List.of("analytical", "flow")));
        List<PointResult> rows = List.of(design(0, "1", "analytical", 10, 50, PointResult.OK),
                design(1, "1", "flow", 10, 80, PointResult.OK), design(2, "2", "analytical", 20, 40, PointResult.OK),
                design(3, "2", "flow", 20, 55, PointResult.OK), design(4, "4", "analytical", 30, 30, PointResult.OK),
                design(5, "4", "flow", 30, Double.NaN, PointResult.FAILED));
        TargetResult r = TargetResult.of(List.of(new Target("fast", null, Double.NaN, 60, Double.NaN, Double.NaN)),
                rows, axes).get(0);
        assertEquals(3, r.point());
        assertEquals(1, r.meeting());
        assertEquals(55, r.time());
        assertEquals("analytical, flow", r.backends());
        assertTrue(r.design().contains("backend=flow"), r.design());
        // without the backend axis each point is a design: point 0 (cost 10, 50 ms) is the cheapest of 4 meeting it
        TargetResult plain = TargetResult.of(List.of(new Target("fast", null, Double.NaN, 60, Double.NaN,
                Double.NaN)), rows, List.of()).get(0);
        assertEquals(0, plain.point());
        assertEquals(4, plain.meeting());
        assertEquals("", plain.backends());
    }
}
