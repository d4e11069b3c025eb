package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The nearest-rank percentile that sets the bands, worked out by hand. */
class ResidualsTest {

    /**
     * Ten residuals 1..10 (shuffled): p95 is rank ceil(0.95 x 10) = 10, value 10; p90 rank 9, value 9; p50 rank 5,
     * value 5. Three residuals 3, 12, 40: p95 rank ceil(2.85) = 3, value 40; p50 rank ceil(1.5) = 2, value 12.
     */
    @Test
    void nearestRankByHand() {
        List<Double> ten = List.of(5.0, 1.0, 9.0, 3.0, 7.0, 2.0, 8.0, 4.0, 6.0, 10.0);
        assertEquals(10.0, Residuals.nearestRank(ten, 95));
        assertEquals(9.0, Residuals.nearestRank(ten, 90));
        assertEquals(5.0, Residuals.nearestRank(ten, 50));
        List<Double> three = List.of(12.0, 3.0, 40.0);
        assertEquals(40.0, Residuals.nearestRank(three, 95));
        assertEquals(12.0, Residuals.nearestRank(three, 50));
        assertEquals(3.0, Residuals.nearestRank(three, 0));
        assertEquals(0.0, Residuals.nearestRank(List.of(), 95));
    }
}
