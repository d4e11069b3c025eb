package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.reports.io.AtomicFolder;
import dev.collsim.validation.tune.TuneEnv;
import dev.collsim.validation.tune.TuneResult;
import dev.collsim.validation.tune.TuneTable;
import dev.collsim.validation.tune.TunerConfigFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@code collsim tune} prints and writes: the table, the env settings and the tuner plugin's file. */
final class TuneOutput {

    /** Tuner plugin configuration file name (the plugin's default name, README "Method 1"). */
    static final String CONFIG = "nccl_tuner.conf";
    /** Environment settings file name. */
    static final String ENV = "nccl_env.sh";
    /** Table file name. */
    static final String TABLE = "tune.txt";

    /** One communicator's result and its env settings. */
    record Part(TuneResult result, TuneEnv env) {
    }

    private final String cluster;
    private final String model;
    private final String version;
    private final List<Part> parts;

    TuneOutput(String cluster, String model, String version, List<Part> parts) {
        this.cluster = cluster;
        this.model = model;
        this.version = version;
        this.parts = List.copyOf(parts);
    }

    void print(PrintWriter out) {
        table().forEach(out::println);
        out.println();
        env().forEach(out::println);
        out.println();
        config().forEach(out::println);
    }

    void write(Path dir) {
        try (AtomicFolder f = new AtomicFolder(dir)) {
            f.write(CONFIG, lines(config()));
            f.write(ENV, lines(env()));
            f.write(TABLE, lines(table()));
            f.commit();
        } catch (IOException e) {
            throw new UserError("cannot write " + dir + ": " + e.getMessage(), ExitCodes.INPUT);
        }
    }

    private static byte[] lines(List<String> l) {
        return (String.join("\n", l) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    List<String> table() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            TuneResult r = p.result();
            out.add(String.format(Locale.ROOT, "# collsim tune: %s, %d ranks on %d NCCL node(s), NCCL %s; %s; "
                    + "band %s (%s)", cluster, r.nRanks(), r.nNodes(), version, model, r.band().text(),
                    r.band().source()));
            out.add("# predicted gain = (time of NCCL's choice - time of collsim's choice) / time of NCCL's choice, "
                    + "both collsim's prediction; a change is advised only where the gain exceeds the band");
            out.addAll(TuneTable.text(r));
            out.add("");
        }
        return out.subList(0, Math.max(0, out.size() - 1));
    }

    List<String> env() {
        Map<String, List<String>> merged = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        out.add("# collsim tune: NCCL settings where one setting per collective achieves the advice (" + cluster + ")");
        out.add("# caveat: these apply to every size of the collective (NCCL_MAX_NCHANNELS to every collective), unlike");
        out.add("# the tuner file's size ranges; each is written only where re-predicting every swept size under it");
        out.add("# reproduces the advice");
        for (Part p : parts) {
            p.env().settings().forEach((k, v) -> merged.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            p.env().notes().forEach(n -> out.add("# " + p.result().nRanks() + " ranks: " + n));
        }
        if (merged.isEmpty()) {
            out.add("# nothing: keep NCCL's choice");
        }
        merged.forEach((k, v) -> out.add(v.stream().distinct().count() > 1
                ? "# " + k + ": the rank counts want different values (" + String.join(" vs ", v) + "); use the tuner file"
                : "export " + k + "=\"" + v.get(0) + "\""));
        return out;
    }

    /** @return per rank count and collective, the byte range the file's lines cover, in words */
    private List<String> covered() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            TuneResult r = p.result();
            Map<String, long[]> span = new LinkedHashMap<>();
            r.lines().forEach(l -> span.merge(TunerConfigFile.COLLECTIVES.get(l.collective()),
                    new long[] {l.minBytes(), l.maxBytes()},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])}));
            span.forEach((c, b) -> out.add(String.format(Locale.ROOT, "  %s %d..%d bytes, %d ranks on %d node(s)", c,
                    b[0], b[1], r.nRanks(), r.nNodes())));
        }
        return out;
    }

    List<String> config() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            TuneResult r = parts.get(i).result();
            List<String> header = new ArrayList<>();
            if (i == 0) {
                header.addAll(List.of("collsim tune for " + cluster + " (NCCL " + version + "; " + model + ")",
                        "use: NCCL_TUNER_PLUGIN=<path to libnccl-tuner-example.so> NCCL_TUNER_CONFIG_FILE=<this file>;"
                        + " first matching line wins; channels 0 = NCCL's own count",
                        "WARNING: NCCL's example plugin runs a call that matches no line on ONE channel (plugin.c sets"
                        + " *nChannels = 1, NCCL 2.27-2.30).", "The lines cover only these; other sizes, collectives "
                        + "and communicators run on 1 channel:"));
                header.addAll(covered());
            }
            List<String> l = new ArrayList<>(TunerConfigFile.lines(r, header));
            if (i > 0) {
                l.remove(0);
            }
            out.addAll(l);
        }
        return out;
    }
}
