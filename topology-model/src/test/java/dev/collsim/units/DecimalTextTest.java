package dev.collsim.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DecimalTextTest {

    private static void same(double v, int decimals) {
        assertEquals(String.format(Locale.ROOT, "%." + decimals + "f", v), DecimalText.fixed(v, decimals),
                "value " + v + " (" + Double.toString(v) + "), " + decimals + " decimals");
    }

    @Test
    void roundsHalfUpOnTheShortestDigitsAsJavasFormatterDoes() {
        // written out by hand: 0.05 -> "0.1"; 0.15 (binary 0.1499999...) -> "0.2", because the formatter rounds the
        // shortest digits "0.15" half up, not the exact binary value; 2.675 -> "2.68" with 2 decimals likewise;
        // 0.25 -> "0.3"; 1e15 - 0.5 and beyond take the formatter itself
        assertEquals("0.1", DecimalText.fixed(0.05, 1));
        assertEquals("0.2", DecimalText.fixed(0.15, 1));
        assertEquals("2.68", DecimalText.fixed(2.675, 2));
        assertEquals("0.3", DecimalText.fixed(0.25, 1));
        assertEquals("1000", DecimalText.fixed(999.5, 0));
        assertEquals("12.0", DecimalText.fixed(12, 1));
        assertEquals("-0.0", DecimalText.fixed(-0.04, 1));
        assertEquals("-0.0", DecimalText.fixed(-0.0, 1));
        assertEquals("NaN", DecimalText.fixed(Double.NaN, 1));
        assertEquals("Infinity", DecimalText.fixed(Double.POSITIVE_INFINITY, 1));
    }

    @Test
    void equalsStringFormatOverManyMagnitudesAndTies() {
        SplittableRandom r = new SplittableRandom(21);
        for (int i = 0; i < 200_000; i++) {
            double v = Math.pow(10, r.nextDouble(-8, 16)) * r.nextDouble();
            same(v, i % 4);
            // ties of the last kept digit: k/10 + 0.05 and k/100 + 0.005 written in decimal
            double tie = (r.nextInt(1_000_000) * 10 + 5) / 100.0;
            same(tie, 1);
            same(tie / 10, 2);
            same(Math.nextUp(tie), 1);
            same(Math.nextDown(tie), 1);
            same(-v, 1);
        }
        for (double v : new double[] {0, Double.MIN_VALUE, 1e15, 1e15 - 0.5, 9.999999999999999e14, 1e300,
                Double.MAX_VALUE, 4.35, 0.45, 1.005, 123456789.95}) {
            for (int d = 0; d <= 9; d++) {
                same(v, d);
            }
        }
    }

    @Test
    void refusesDecimalsOutsideTheRange() {
        assertThrows(IllegalArgumentException.class, () -> DecimalText.fixed(1, 10));
        assertThrows(IllegalArgumentException.class, () -> DecimalText.fixed(1, -1));
    }
}
