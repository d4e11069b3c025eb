package dev.collsim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one "did you mean" rule: distances worked by hand (one edit per inserted, deleted or replaced character, or per
 * swap of two adjacent characters), accepted when 3 x distance <= the longer name's length.
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

    @Test
    void twoSwappedLettersAreOneEdit() {
        // "rnig" -> "ring": swap 'n','i' = 1 edit (Levenshtein would count 2 replacements; 6 > 4 suggested nothing)
        assertEquals(Optional.of("Ring"), NearestName.of("Rnig", List.of("Tree", "Ring", "NVLS")));
        assertEquals(1, NearestName.distance("rnig", "ring"));
        // "allredcue" -> "allreduce": swap 'c','u' = 1 edit
        assertEquals(1, NearestName.distance("allredcue", "allreduce"));
        // "ab" -> "ba" is one swap; "abc" -> "ca" is 3 (no substring edited twice: delete a, ... ), not 2
        assertEquals(1, NearestName.distance("ab", "ba"));
        assertEquals(3, NearestName.distance("abc", "ca"));
        // plain edits unchanged: "kitten" -> "sitting" is 3 (k->s, e->i, insert g)
        assertEquals(3, NearestName.distance("kitten", "sitting"));
    }
}
