package dev.collsim.validation.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.perf.PerfJson;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import dev.collsim.perf.PerfRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the two JSON result formats: nccl-tests' {@code -J} output (nccl-tests 2.19.6 {@code src/util.cu}: keys
 * {@code args}, {@code env}, {@code nccl_version}, {@code config.devices}, {@code results[].out_of_place.alg_bw}
 * ...) and collsim's own run JSON (the executor's {@link PerfRun}, read with Jackson through {@link PerfJson}:
 * {@code tool}, {@code collective}, {@code n_ranks}, {@code results}, {@code metadata}), which uses the same row
 * keys. Both become rows of the shared schema ({@link PerfRow}); "not checked" is {@code nwrong} null or absent.
 * JSON carries no line numbers, so problems name the field path instead.
 */
public final class JsonMeasurementReader {

    private static final String NO_HALF = "neither half has time, alg_bw and bus_bw";
    private static final String NOT_FINITE = "a time or bandwidth beyond a double (e.g. 1e999); allowed: finite numbers";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonMeasurementReader() {
    }

    /**
     * @param file    name to cite
     * @param content the JSON text
     * @return one dataset per run (a file may hold a JSON array of runs, as {@code collsim run --sweep-env} writes)
     * @throws InputException on malformed JSON or missing fields (path named)
     */
    public static List<Dataset> read(String file, String content) throws InputException {
        JsonNode root;
        Optional<JsonCut.Mended> cut = Optional.empty();
        try {
            root = MAPPER.readTree(content);
        } catch (JsonProcessingException e) {
            if (!(e instanceof JsonEOFException) && !e.getOriginalMessage().contains("end-of-input")) {
                throw notJson(file, e);
            }
            cut = JsonCut.mend(content);
            root = mended(file, cut, e);
        }
        List<Dataset> out = new ArrayList<>();
        for (int i = 0; i < (root.isArray() ? root.size() : 1); i++) {
            boolean last = !root.isArray() || i == root.size() - 1;
            out.add(readRun(file, root.isArray() ? root.get(i) : root, i + 1, last ? cut : Optional.empty()));
        }
        if (out.isEmpty()) {
            throw new InputException(new InputProblem(file, 1, 1, "", "empty JSON array: no run"));
        }
        return out;
    }

    /** @return the tree of a file cut short, read up to its last complete result */
    private static JsonNode mended(String file, Optional<JsonCut.Mended> cut, JsonProcessingException e)
            throws InputException {
        if (cut.isEmpty()) {
            var loc = e.getLocation();
            throw new InputException(new InputProblem(file, loc == null ? 0 : loc.getLineNr(),
                    loc == null ? 0 : loc.getColumnNr(), "", "not valid JSON: it ends before its first complete "
                    + "result (cut short?): " + why(e)));
        }
        try {
            return MAPPER.readTree(cut.get().json());
        } catch (JsonProcessingException again) {
            throw notJson(file, e);
        }
    }

    private static InputException notJson(String file, JsonProcessingException e) {
        var loc = e.getLocation();
        return new InputException(new InputProblem(file, loc == null ? 0 : loc.getLineNr(),
                loc == null ? 0 : loc.getColumnNr(), "", "not valid JSON: " + why(e)));
    }

    /**
     * @return the parser's reason in one line, without its "(start marker at [Source: ...])" part, which names the
     *         parser's input object rather than anything in the file (the line and column are the problem's own)
     */
    private static String why(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        int marker = m.indexOf(" (start marker at");
        m = marker >= 0 ? m.substring(0, marker) : m;
        int nl = m.indexOf('\n');
        return (nl >= 0 ? m.substring(0, nl) : m).strip();
    }

    /**
     * @return the note of a file cut short: where it stopped, the complete results kept, the last size and the
     *         largest size the run asked for (collsim's {@code config.maximum_bytes}, nccl-tests' {@code -e})
     */
    private static Note cutNote(JsonCut.Mended cut, JsonNode root, List<PerfPoint> points) {
        long max = root.path("config").path("maximum_bytes").asLong(0);
        if (max == 0) {
            List<String> args = new ArrayList<>();
            root.path("args").forEach(a -> args.add(a.asText()));
            max = CutShort.maxBytesOf(String.join(" ", args));
        }
        long lastSize = points.isEmpty() ? 0 : points.get(points.size() - 1).sizeBytes();
        String asked = max > lastSize && lastSize > 0 ? "; the last complete result is " + lastSize
                + " B, the run asked for sizes up to " + max + " B" : "";
        return new Note(cut.line(), "output cut short: the JSON ends at line " + cut.line() + " inside "
                + (cut.where().isEmpty() ? "its top level" : cut.where()) + "; the " + cut.complete()
                + " complete results before it are read, the rest of the file is missing" + asked);
    }

    /** Reads one run object ({@code index}: 1-based position in a file holding an array of runs). */
    private static Dataset readRun(String file, JsonNode root, int index, Optional<JsonCut.Mended> cut) throws InputException {
        List<InputProblem> problems = new ArrayList<>();
        boolean collsim = root.has("tool");
        PerfRun run = collsim ? perfRun(file, root) : null;
        JsonNode results = root.path("results");
        if (!results.isArray() || results.isEmpty()) {
            throw new InputException(new InputProblem(file, 0, 0, "results", "missing or empty; expected the list of result rows"));
        }
        Collective c = collective(file, root, collsim);
        List<RankInfo> ranks = ranks(root, collsim);
        Map<String, String> env = new LinkedHashMap<>();
        String settings = root.path("metadata").path("settings").asText("");
        NcclLogParser logParser = new NcclLogParser();
        NcclRelease release;
        if (collsim) {
            root.path("metadata").path("nccl_env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
            release = NcclRelease.parse(root.path("metadata").path("nccl_version").asText(""));
            int ln = 1;
            for (JsonNode l : root.path("metadata").path("nccl_log")) {
                logParser.accept(l.asText(), ln++);
            }
        } else {
            ncclTestsEnv(root, env);
            release = NcclRelease.fromCode(root.path("nccl_version").asInt(0));
        }
        List<PerfPoint> points = new ArrayList<>();
        List<Note> notes = new ArrayList<>();
        List<IterationSpread.Sample> iters = new ArrayList<>();
        String type = null;
        boolean cpuTime = CpuTime.json(results, notes);
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            String path = "results[" + i + "]";
            if (!r.path("size").canConvertToLong() || !r.has("out_of_place") && !r.has("in_place")) {
                problems.add(new InputProblem(file, 0, 0, path, "needs 'size' and 'out_of_place' or 'in_place'"));
                continue;
            }
            type = r.path("type").asText(type);
            PerfResult oop = timing(r.path("out_of_place"), cpuTime, r.path("size").asLong());
            PerfResult ip = timing(r.path("in_place"), cpuTime, r.path("size").asLong());
            if (cpuTime && CpuTime.jsonDropped(oop, ip, path, notes)) {
                continue;
            }
            if (oop == null && ip == null || !finite(oop) || !finite(ip)) {
                problems.add(new InputProblem(file, 0, 0, path, oop == null && ip == null ? NO_HALF : NOT_FINITE));
                continue;
            }
            PerfRow row = run != null && !cpuTime ? run.rows().get(i) : resultRow(r, oop, ip);
            if (dropped(row, path, notes)) {
                continue;
            }
            points.add(new PerfPoint(row, 0));
            slowProcess(r.path("out_of_place_per_iter").path("per_process_max_times_us"), r.path("size").asLong())
                    .ifPresent(notes::add);
            iterSample(r).ifPresent(iters::add);
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        IterationSpread.note(iters).ifPresent(notes::add);
        cut.ifPresent(m -> notes.add(cutNote(m, root, points)));
        int nRanks = collsim ? root.path("n_ranks").asInt(ranks.size()) : ranks.size();
        if (nRanks < 1) {
            throw new InputException(new InputProblem(file, 0, 0, collsim ? "n_ranks" : "config.devices", "no ranks listed"));
        }
        List<PerfPoint> located = points.stream()
                .map(p -> new PerfPoint(p.row().withRun(c.testName(), nRanks), p.line())).toList();
        DataType dt = dataType(type);
        int hosts = (int) ranks.stream().map(RankInfo::host).distinct().count();
        String gpu = ranks.isEmpty() ? "" : ranks.get(0).gpuModel();
        RunEnv.collect(settings, env);
        String label = (collsim ? "collsim run" : "nccl-tests JSON") + (index > 1 || !settings.isEmpty()
                ? " " + index : "") + (settings.isEmpty() ? "" : " (" + settings + ")");
        return new Dataset(file, label, index,
                collsim ? DatasetKind.COLLSIM_RUN_JSON : DatasetKind.NCCL_TESTS_JSON, c, dt, nRanks, hosts, gpu,
                release, env, FileHeader.EMPTY, ranks, located,
                collsim ? root.path("average_bus_bandwidth").asDouble(Double.NaN)
                        : root.path("average_bus_bandwidth").path("bandwidth").asDouble(Double.NaN),
                Double.NaN, logParser.build(), notes, launch(root.path("config")));
    }

    /**
     * @param config the result's {@code config} object: nccl-tests {@code -J} (2.19.6 {@code src/util.cu}, after the
     *               {@code # nThread} line: {@code nthreads}, {@code ngpus}, {@code iterations} = {@code -n},
     *               {@code aggregated_iterations} = {@code -m}, {@code graph}, {@code blocking_collectives} =
     *               {@code -z} above 0, a boolean) and collsim run (the same keys, as collsim's {@code RunConfig};
     *               {@code blocking_collectives} its {@code -z} value)
     * @return the launch shape it gives, {@link LaunchShape#UNKNOWN} without {@code ngpus}; timed calls per run
     *         {@code iterations x aggregated_iterations} ({@code aggregated_iterations} 1 when absent), 0 (not
     *         said) without {@code iterations} ({@link LaunchShape#timedCalls})
     */
    private static LaunchShape launch(JsonNode config) {
        int g = config.path("ngpus").asInt(0);
        int t = config.path("nthreads").asInt(0);
        int graph = config.path("graph").asInt(0);
        long iters = config.path("iterations").asLong(0);
        long agg = config.path("aggregated_iterations").asLong(1);
        return g < 1 || t < 0 || graph < 0 ? LaunchShape.UNKNOWN
                : new LaunchShape(t, g, graph, LaunchShape.timedCalls(iters, agg),
                        config.path("blocking_collectives").asBoolean(false));
    }

    /** @return the collsim run bound as a PerfRun; a mapping failure is reported as not a collsim run */
    private static PerfRun perfRun(String file, JsonNode root) throws InputException {
        try {
            return PerfJson.mapper().treeToValue(root, PerfRun.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InputException(new InputProblem(file, 0, 0, "", "not a collsim run (PerfRun): "
                    + e.getMessage().lines().findFirst().orElse("")));
        }
    }

    /** Copies the NCCL_* entries of nccl-tests' "env" list ("KEY=value" strings) into env. */
    private static void ncclTestsEnv(JsonNode root, Map<String, String> env) {
        for (JsonNode e : root.path("env")) {
            String kv = e.asText();
            int eq = kv.indexOf('=');
            if (eq > 0 && kv.startsWith("NCCL_")) {
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
    }

    /** @return the data type named by type, or null when absent or unknown */
    private static DataType dataType(String type) {
        try {
            return type == null ? null : DataType.parse(type);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * nccl-tests -I writes, per result, every process's per-iteration times ({@code per_process_max_times_us},
     * nccl-tests 2.19.6 {@code src/util.cu writePerIterReport}). A process whose median is at least 1.3x the
     * median of the others' medians is a slow rank (or host).
     *
     * @return a note naming the slow process, if any
     */
    /** nccl-tests -I -J: the out-of-place per-iteration summary of one result, if printed. */
    private static Optional<IterationSpread.Sample> iterSample(JsonNode r) {
        JsonNode it = r.path("out_of_place_per_iter");
        if (!it.has("cv_pct")) {
            return Optional.empty();
        }
        return Optional.of(new IterationSpread.Sample(r.path("size").asLong(), it.path("min_us").asDouble(Double.NaN),
                it.path("max_us").asDouble(Double.NaN), it.path("p99_us").asDouble(Double.NaN),
                it.path("cv_pct").asDouble(Double.NaN), 0));
    }

    static Optional<Note> slowProcess(JsonNode perProcess, long size) {
        if (!perProcess.isArray() || perProcess.size() < 2) {
            return Optional.empty();
        }
        double[] med = new double[perProcess.size()];
        for (int p = 0; p < med.length; p++) {
            List<Double> t = new ArrayList<>();
            perProcess.get(p).forEach(x -> t.add(x.asDouble()));
            t.sort(null);
            med[p] = t.isEmpty() ? Double.NaN : t.get(t.size() / 2);
        }
        int worst = 0;
        for (int p = 1; p < med.length; p++) {
            if (med[p] > med[worst]) {
                worst = p;
            }
        }
        List<Double> others = new ArrayList<>();
        for (int p = 0; p < med.length; p++) {
            if (p != worst) {
                others.add(med[p]);
            }
        }
        others.sort(null);
        double rest = others.get(others.size() / 2);
        if (rest > 0 && med[worst] >= 1.3 * rest) {
            return Optional.of(new Note(0, String.format(Locale.ROOT, "slow process %d at %d "
                    + "bytes: median per-iteration time %.1f us against %.1f us for the other processes (%.2fx)",
                    worst, size, med[worst], rest, med[worst] / rest)));
        }
        return Optional.empty();
    }

    private static Collective collective(String file, JsonNode root, boolean collsim) throws InputException {
        String name = collsim ? root.path("collective").asText("") : "";
        if (name.isEmpty()) {
            for (JsonNode a : root.path("args")) {
                var found = Claims.perfBinaries(a.asText());
                if (found.size() == 1) {
                    return found.iterator().next();
                }
            }
            JsonNode first = root.path("results").path(0);
            name = first.path("experiment_name").asText(first.path("collective").asText(""));
        }
        try {
            return Collective.parse(name);
        } catch (IllegalArgumentException e) {
            throw new InputException(new InputProblem(file, 0, 0, collsim ? "collective" : "args",
                    "cannot tell the collective ('" + name + "'); " + e.getMessage()));
        }
    }

    private static List<RankInfo> ranks(JsonNode root, boolean collsim) {
        List<RankInfo> out = new ArrayList<>();
        JsonNode list = collsim ? root.path("metadata").path("gpus") : root.path("config").path("devices");
        for (JsonNode d : list) {
            out.add(new RankInfo(d.path("rank").asInt(), d.path("group").asInt(0), d.path("pid").asLong(),
                    d.path("hostname").asText(""), d.path("device").asInt(),
                    d.path(collsim ? "bus_id" : "device_hex").asText(""),
                    d.path(collsim ? "name" : "device_info").asText(""), 0));
        }
        return out;
    }

    /** @return a {@code results} entry as a row, its halves as read ({@link #timing}) */
    private static PerfRow resultRow(JsonNode r, PerfResult oop, PerfResult ip) {
        return new PerfRow("", r.path("type").asText(""), r.path("redop").asText(null), r.path("root").asInt(-1), 0,
                r.path("size").asLong(), r.path("count").asLong(-1), oop, ip, null);
    }

    /** @return true (after a warning note) when the row has a negative time or bandwidth, which no run measures */
    private static boolean dropped(PerfRow row, String path, List<Note> notes) {
        String negative = PerfPoint.negative(row);
        if (negative != null) {
            notes.add(Note.warning(0, path + ": " + negative + ": no measured value is below zero; the result is"
                    + " dropped"));
        }
        return negative != null;
    }

    private static boolean finite(PerfResult r) {
        return r == null || Double.isFinite(r.timeUs()) && Double.isFinite(r.algBw()) && Double.isFinite(r.busBw());
    }

    /**
     * @param n       one half of a result
     * @param cpuTime true when the file times with {@code cpu_time} ({@link CpuTime}): the time is size / alg_bw
     * @param size    the result's size, bytes
     */
    private static PerfResult timing(JsonNode n, boolean cpuTime, long size) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return null;
        }
        JsonNode time = n.path(cpuTime ? "cpu_time" : "time");
        if (!time.isNumber() || !n.path("alg_bw").isNumber() || !n.path("bus_bw").isNumber()) {
            return null;
        }
        JsonNode w = n.path("nwrong");
        Long wrong = w.isNumber() ? Long.valueOf(w.asLong()) : null;
        PerfResult r = new PerfResult(time.asDouble(), n.path("alg_bw").asDouble(), n.path("bus_bw").asDouble(), wrong);
        return cpuTime ? CpuTime.jsonHalf(r, size) : r;
    }
}
