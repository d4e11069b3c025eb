package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A band wider than +/-100 % says so wherever it is printed. */
class PredictionBandWideTest {

    @Test
    void wideBandsCarryANote() {
        assertFalse(new PredictionBand(100, 40).wide());
        assertEquals("", new PredictionBand(100, 40).wideNote());
        assertTrue(new PredictionBand(381.4, 170.1).wide());
        assertEquals(" (wide: > +/-100 % at every size; the measured time can be more than twice the prediction)",
                new PredictionBand(381.4, 170.1).wideNote());
        assertEquals(" (wide: > +/-100 % below 1 MiB; the measured time can be more than twice the prediction)",
                new PredictionBand(106.9, 38.7).wideNote());
        assertEquals("the profile's band: +/-24.2 % below 1 MiB, +/-136.6 % at >= 1 MiB (wide: > +/-100 % at >= 1 MiB;"
                + " the measured time can be more than twice the prediction)",
                new PredictionBand(24.2, 136.6).describeAs("the profile's band"));
    }
}
