package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

/**
 * The one median of validation's figures ({@link ErrorStats#median}), worked by hand: sorted, the middle value of an
 * odd count, the mean of the two middle values of an even count.
 */
class ErrorStatsTest {

    /** 7, 1, 4 sorted is 1, 4, 7: the middle value 4. */
    @Test
    void anOddCountTakesTheMiddleValue() {
        assertEquals(4.0, ErrorStats.median(List.of(7.0, 1.0, 4.0)), 0);
    }

    /** 10, 2, 8, 4 sorted is 2, 4, 8, 10: the mean of 4 and 8, 6. */
    @Test
    void anEvenCountTakesTheMeanOfTheTwoMiddleValues() {
        assertEquals(6.0, ErrorStats.median(List.of(10.0, 2.0, 8.0, 4.0)), 0);
        DescriptiveStatistics st = new DescriptiveStatistics(new double[] {-3, 5});
        assertEquals(1.0, ErrorStats.median(st), 0);
    }

    @Test
    void noValueHasNoMedian() {
        assertTrue(Double.isNaN(ErrorStats.median(List.of())));
        assertTrue(Double.isNaN(ErrorStats.median(new DescriptiveStatistics())));
    }

    /** The statistics' median is the same median: 1, 2, 3, 10, 20 gives 3; the max 20. */
    @Test
    void theStatisticsCarryTheSameMedian() {
        ErrorStats s = ErrorStats.of(List.of(20.0, 1.0, 3.0, 10.0, 2.0));
        assertEquals(5, s.n());
        assertEquals(3.0, s.median(), 0);
        assertEquals(20.0, s.max(), 0);
    }
}
