package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The band is multiplicative: [p / f, p x f], f = 1 + percent / 100; a band wider than factor 2 says so. */
class PredictionBandWideTest {

    @Test
    void wideBandsCarryANote() {
        assertFalse(new PredictionBand(100, 40).wide());
        assertEquals("", new PredictionBand(100, 40).wideNote());
        assertTrue(new PredictionBand(381.4, 170.1).wide());
        assertEquals(" (wide at every size: the measured time can be more than 2x or less than 1/2 of the prediction)",
                new PredictionBand(381.4, 170.1).wideNote());
        assertEquals(" (wide below 1 MiB: the measured time can be more than 2x or less than 1/2 of the prediction)",
                new PredictionBand(106.9, 38.7).wideNote());
        // factor 1.242: low 1 - 1 / 1.242 = 19.48 %; factor 2.366: low 1 - 1 / 2.366 = 57.73 %
        assertEquals("the profile's band: factor 1.24 (-19.5 % .. +24.2 %) below 1 MiB, factor 2.37 (-57.7 % .. "
                + "+136.6 %) at >= 1 MiB (wide at >= 1 MiB: the measured time can be more than 2x or less than 1/2 of "
                + "the prediction)", new PredictionBand(24.2, 136.6).describeAs("the profile's band"));
    }

    /** +25 %: factor 1.25, 100 us spans 80..125 us; +200 %: factor 3, 90 us spans 30..270 us, never 0. */
    @Test
    void theBandIsAFactorEachWay() {
        PredictionBand b = new PredictionBand(25, 200);
        assertEquals(80, b.low(100, 1024), 1e-9);
        assertEquals(125, b.high(100, 1024), 1e-9);
        assertEquals(30, b.low(90, 1 << 20), 1e-9);
        assertEquals(270, b.high(90, 1 << 20), 1e-9);
        assertTrue(b.holds(100, 80, 1024));
        assertFalse(b.holds(100, 79.9, 1024));
        assertEquals(200, PredictionBand.residualPercent(100, 300), 1e-9);
        assertEquals(200, PredictionBand.residualPercent(300, 100), 1e-9);
    }

    /**
     * One figure, one text: the fit's unrounded reach and the value the calibration file stores (2 decimals) print
     * alike. By hand: 195.9478 is stored 195.95; factor 1 + 195.95 / 100 = 2.9595 -> "2.96"; low end
     * 1 - 1 / 2.9595 = 0.66211 -> "-66.2 %"; reach 195.95 -> "+196.0 %" (the unrounded 195.9478 alone would print
     * "+195.9 %", the figure the calibration index showed while the report printed "+196.0 %").
     */
    @Test
    void theFitAndTheFileReadBackPrintTheSameFigures() {
        assertEquals(195.95, PredictionBand.stored(195.9478), 0);
        // Rounded up, never narrower than measured: 12.341 -> 12.35 (1234.1 up to 1235); a value already on a hundredth
        // stays: 1.1 * 100 is 110.00000000000001 in binary, which a bare ceil would push to 1.11.
        assertEquals(12.35, PredictionBand.stored(12.341), 0);
        assertEquals(1.1, PredictionBand.stored(1.1), 0);
        assertEquals("factor 2.96 (-66.2 % .. +196.0 %)", PredictionBand.words(195.9478));
        assertEquals(PredictionBand.words(195.95), PredictionBand.words(195.9478));
        assertEquals(new PredictionBand(195.95, 104.02).regimes(), new PredictionBand(195.9478, 104.0249).regimes());
    }

    /**
     * The printed factor and the "(wide)" mark agree next to factor 2. By hand: reach 99.85 % is factor 1.9985, which
     * "%.2f" would print "2.00" with no mark; one more decimal tells it is below 2: "1.999" (Java's %f rounds the
     * shortest decimal text, 1.9985, half up); low end 1 - 1 / 1.9985 = 0.499625 -> "-50.0" at 1 decimal, so
     * "-49.96"; reach 99.85 -> "+99.9". Reach 100.4 % is factor 2.004, "2.00" at
     * 2 decimals, "2.004" at 3, wide; low 1 - 1 / 2.004 = 0.500998 -> "-50.1". Exactly factor 2 stays "2.00", not
     * wide (wide is above 2).
     */
    @Test
    void aFactorNextToTwoPrintsTheSideOfTwoItIsOn() {
        assertEquals("factor 1.999 (-49.96 % .. +99.9 %)", PredictionBand.words(99.85));
        assertFalse(new PredictionBand(99.85, 99.85).wide());
        assertEquals("factor 2.004 (-50.1 % .. +100.4 %)", PredictionBand.words(100.4));
        assertTrue(new PredictionBand(10, 100.4).wide());
        assertEquals("factor 2.00 (-50.0 % .. +100.0 %)", PredictionBand.words(100));
        assertFalse(new PredictionBand(100, 100).wide());
        // reach 99.96: factor 1.9996 prints "2.00" at 2 decimals and "2.000" at 3, so 4; "+100.0" at 1, so "+99.96";
        // low 1 - 1 / 1.9996 = 0.49990 -> "-49.99"
        assertEquals("factor 1.9996 (-49.99 % .. +99.96 %)", PredictionBand.words(99.96));
        // binary noise 1e-12 above 100 is stored 100.00 and prints "2.00": not wide, as printed; 1e-8 above is stored
        // (rounded up) 100.01, factor 2.0001: wide, prints "2.0001"; low 1 - 1 / 2.0001 = 0.500025 -> "-50.002"
        assertFalse(new PredictionBand(100 + 1e-12, 0).wide());
        assertTrue(new PredictionBand(100 + 1e-8, 0).wide());
        assertEquals("factor 2.0001 (-50.002 % .. +100.01 %)", PredictionBand.words(100 + 1e-8));
    }
}
