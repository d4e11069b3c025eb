package dev.collsim.validation.ingest;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a reader knows about the run it is inside: section title, collective claims, rank lines, NCCL log lines.
 * Mutable; one per run; package-private.
 */
final class RunContext {

    /** A claim about the collective with the line that made it. */
    record Claim(Collective collective, int line, String source) {
    }

    String title = "";
    int titleLine;
    Claim strong;
    final List<Claim> weak = new ArrayList<>();
    final List<RankInfo> ranks = new ArrayList<>();
    NcclLogParser log = new NcclLogParser();
    String libraryVersion = "";
    int nGpusPerThread;
    /** maxBytes of nccl-tests' {@code # nThread ...} line, bytes; 0 when not seen. */
    long maxBytes;
    final List<Note> notes = new ArrayList<>();
    /** NCCL_* settings a {@code # collsim settings: K=V ...} line set for this run (collsim's sweep files). */
    final Map<String, String> settings = new LinkedHashMap<>();

    /** Adds weak claims for every collective named in the text. */
    void weakClaims(Set<Collective> named, int line, String source) {
        if (named.size() == 1) {
            weak.add(new Claim(named.iterator().next(), line, source));
        }
    }

    /** @return the collectives weak claims name, in order, without duplicates */
    Set<Collective> weakSet() {
        Set<Collective> s = EnumSet.noneOf(Collective.class);
        weak.forEach(c -> s.add(c.collective()));
        return s;
    }

    /** @return a fresh context that keeps nothing but the title (for a second table in the same section) */
    RunContext continuation() {
        RunContext c = new RunContext();
        c.title = title;
        c.titleLine = titleLine;
        c.strong = strong;
        c.weak.addAll(weak);
        c.ranks.addAll(ranks);
        c.libraryVersion = libraryVersion;
        c.maxBytes = maxBytes;
        c.settings.putAll(settings);
        return c;
    }
}
