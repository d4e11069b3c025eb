package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one reader of NAMExN / NAME:N / FILE:N: whole-number counts split off, stray suffixes refused by name. */
class HostCountTest {

    private static final Predicate<String> KNOWN = n -> Set.of("dgx-h100", "p5.48xlarge", "a3-highgpu-8g")
            .contains(n.toLowerCase(Locale.ROOT));

    @Test
    void wholeCountsSplitAfterAKnownName() {
        assertEquals(Optional.of(new HostCount("dgx-h100", "2")), HostCount.split("dgx-h100x2", KNOWN, true));
        assertEquals(Optional.of(new HostCount("dgx-h100", "16")), HostCount.split("dgx-h100:16", KNOWN, true));
        assertEquals(Optional.of(new HostCount("DGX-H100", "2")), HostCount.split("DGX-H100X2", KNOWN, true));
        // a name with x inside and a letter before the count's x
        assertEquals(Optional.of(new HostCount("p5.48xlarge", "4")), HostCount.split("p5.48xlargex4", KNOWN, true));
        assertEquals(Optional.of(new HostCount("a3-highgpu-8g", "3")), HostCount.split("a3-highgpu-8gx3", KNOWN,
                true));
        // a file takes ':' only
        assertEquals(Optional.empty(), HostCount.split("dgx-h100x2", KNOWN, false));
        assertEquals(Optional.empty(), HostCount.split("dgx-h200x2", KNOWN, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100:2x", "dgx-h100x2x", "dgx-h100:2.5", "dgx-h100:", "dgx-h100:two", "dgx-h100x2 3"})
    void strayCountsAreRefusedNamingWhatFollows(String text) {
        Optional<String> why = HostCount.stray(text, KNOWN, true, "NAMExN or NAME:N");
        assertTrue(why.isPresent(), text);
        assertTrue(why.get().startsWith("'dgx-h100' is followed by '" + text.substring("dgx-h100".length()) + "'"),
                why.get());
        assertTrue(why.get().contains("allowed: NAMExN or NAME:N with N a whole number >= 1"), why.get());
    }

    @Test
    void theExampleKeepsTheDigitsFound() {
        assertTrue(HostCount.stray("dgx-h100:2x", KNOWN, true, "NAME:N").get().endsWith("e.g. dgx-h100:2"));
        assertTrue(HostCount.stray("dgx-h100x16x", KNOWN, true, "NAMExN").get().endsWith("e.g. dgx-h100x16"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "dgx-h100x2", "dgx-h100:2", "p5.48xlarge", "p5.48xlargex4", "dgx-h200:2x",
        "a3-highgpu-8gx2"})
    void wellFormedOrUnknownNamesAreNotStray(String text) {
        assertEquals(Optional.empty(), HostCount.stray(text, KNOWN, true, "NAMExN"), text);
    }

    @Test
    void aMisspeltNameKeepsItsCountForTheSuggestion() {
        assertEquals(Optional.of(new HostCount("dgx_h100", "2")), HostCount.trailing("dgx_h100:2"));
        assertEquals(Optional.of(new HostCount("dgx-h100", "2")), HostCount.trailing("dgx-h100 x 2"));
        assertEquals(Optional.empty(), HostCount.trailing("rtx4090"));
    }
}
