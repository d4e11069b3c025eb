package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The shared shape of the CollNet settings tests (CollNetOffFromLogTest, OlderCollNetTest): a corpus file's first
 * run, its env copied as the settings a rewrite may change, the run asking for CollNet
 * ({@code NCCL_COLLNET_ENABLE=1} in its env line), the rewrite's note and the value it leaves.
 *
 * @param dataset  the file's first run
 * @param settings a mutable copy of its env
 */
record CollNetRewrite(Dataset dataset, Map<String, String> settings) {

    /**
     * @param file a corpus file name
     * @return its first run with a mutable copy of its env
     * @throws Exception when the file cannot be read
     */
    static CollNetRewrite read(String file) throws Exception {
        Dataset d = Corpus.read(file).get(0);
        return new CollNetRewrite(d, new HashMap<>(d.env()));
    }

    /**
     * Asserts that the run asks for CollNet, that the rewrite gives {@code note}, and that it leaves {@code key} at
     * {@code after}.
     *
     * @param rewrite the settings rewrite, e.g. {@code RunSettings::collNetOffFromLog}
     * @param note    the note expected
     * @param key     the variable it changes
     * @param after   its value afterwards
     */
    void assertRewrite(BiFunction<Dataset, Map<String, String>, Optional<String>> rewrite, String note, String key,
            String after) {
        assertEquals("1", settings.get("NCCL_COLLNET_ENABLE"));
        assertEquals(Optional.of(note), rewrite.apply(dataset, settings));
        assertEquals(after, settings.get(key));
    }
}
