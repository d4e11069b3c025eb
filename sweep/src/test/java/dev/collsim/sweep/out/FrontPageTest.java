package dev.collsim.sweep.out;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.sweep.point.PointResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep page's chart options, on points made up by hand. */
class FrontPageTest {

    private static PointResult plan(long point, double cost, double stepMs) {
        return new PointResult(point, point, "job", "plan", "d" + point, List.of(), PointResult.OK, "", 8, 1, 0,
                Double.NaN, Double.NaN, "", stepMs, 1e6 / stepMs, Double.NaN, "", 0, 0, 0, cost, 0, cost, 0);
    }

    @Test
    void optionKeysComeInTheOrderWrittenSoThePageIsTheSameFromRunToRun() {
        List<PointResult> rows = List.of(plan(0, 10, 100), plan(1, 20, 50));
        String o = FrontPage.option("job", rows, rows, "USD");
        // multi-key Map.of iterated in an order salted per JVM: these exact runs of keys could not be relied on
        assertTrue(o.contains("\"xAxis\":{\"type\":\"value\",\"name\":\"cost (USD)\",\"scale\":true},"
                + "\"yAxis\":{\"type\":\"value\",\"name\":\"time (ms)\",\"scale\":true}"), o);
        assertTrue(o.contains("{\"name\":\"designs\",\"type\":\"scatter\",\"symbolSize\":4,"
                + "\"data\":[[10.0,100.0,\"d0\"],[20.0,50.0,\"d1\"]],\"itemStyle\":{\"color\":\"#9aa5b1\"}}"), o);
        assertTrue(o.startsWith("{\"tooltip\":{\"trigger\":\"item\",\"formatter\":function(p){"), o);
    }
}
