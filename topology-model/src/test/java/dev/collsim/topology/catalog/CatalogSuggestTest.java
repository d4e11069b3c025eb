package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The "did you mean" of an unknown host type: one edit away is suggested, an unrelated word is not. */
class CatalogSuggestTest {

    @Test
    void oneTypoAwaySuggestsTheCatalogName() {
        assertEquals(Optional.of("dgx-h100"), Catalog.suggest("dgx-h1000")); // one inserted character
        assertEquals(Optional.of("dgx-a100"), Catalog.suggest("DGX-A10O")); // case ignored, one substitution
    }

    /**
     * A name cut short is 4 edits from p5.48xlarge (more than a third of its 11 characters), but only that catalog
     * name begins with it; "dgx-" begins many, so nothing is suggested.
     */
    @Test
    void aNameCutShortSuggestsTheOneNameItBegins() {
        assertEquals(Optional.of("p5.48xlarge"), Catalog.suggest("p5.48xl"));
        assertTrue(Catalog.suggest("dgx-").isEmpty());
    }

    @Test
    void unrelatedWordSuggestsNothing() {
        assertTrue(Catalog.suggest("banana").isEmpty());
        assertTrue(Catalog.suggest("").isEmpty());
    }

    /**
     * The allowed list of -c names the keys a user types: every entry's first word resolves to its host type
     * (case-insensitively), and a maker's name that is not one to type stands beside the key: ABCI's node (V) is
     * typed abci-node-v (AbciNodeV.name), its maker's name "ABCI Compute Node (V)" has spaces and parentheses.
     */
    @Test
    void typedNamesAreKeysAUserCanType() {
        assertTrue(Catalog.typedNames().contains("abci-node-v (ABCI Compute Node (V))"), Catalog.typedNames()
                .toString());
        assertTrue(Catalog.typedNames().contains("Standard_ND96isr_H100_v5"), Catalog.typedNames().toString());
        for (String n : Catalog.typedNames()) {
            String key = n.split(" ")[0];
            assertTrue(Catalog.hostType(key).isPresent(), key + " of '" + n + "' must be a -c name");
        }
    }
}
