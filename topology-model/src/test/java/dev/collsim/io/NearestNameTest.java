package dev.collsim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one "did you mean" rule: distances worked by hand (Levenshtein: one edit per inserted, deleted or replaced
 * character), accepted when 3 x distance <= the longer name's length.
 */
class NearestNameTest {

    @Test
    void theNearestNameWithinAThirdIsSuggested() {
        // "colectives" -> "collectives": one insertion; 3 <= 11
        assertEquals(Optional.of("collectives"), NearestName.of("colectives", List.of("cluster", "collectives")));
        // case ignored: "HOSTS" -> "hosts" is distance 0
        assertEquals(Optional.of("hosts"), NearestName.of("HOSTS", List.of("hosts", "fabric")));
        assertEquals("; did you mean 'fabric'?", NearestName.hint("fabrik", List.of("hosts", "fabric")));
    }

    @Test
    void aNameTooFarSuggestsNothing() {
        // "abc" -> "xyz": 3 replacements; 9 > 3
        assertEquals(Optional.empty(), NearestName.of("abc", List.of("xyz")));
        // "hostss" vs "fabric": 6 edits, far; vs "hosts": 1 deletion, near
        assertEquals(Optional.of("hosts"), NearestName.of("hostss", List.of("fabric", "hosts")));
        assertEquals("", NearestName.hint("", List.of("hosts")));
    }
}
