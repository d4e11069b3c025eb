package dev.collsim.hardware;

import dev.collsim.hardware.GpuModel.Variant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The GPU-model database: every GPU model collsim knows, with its figures and their sources ({@link GpuModel}). Look a
 * model up by an exact name or alias ({@link #byName}), by free text such as a data file's hardware header
 * ({@link #find}), by PCI device id ({@link #byPciDeviceId}) or by compute capability ({@link #bySm}). Stateless;
 * the records are immutable.
 */
public final class GpuModels {

    /** A model and one of its variants, as a SKU name or PCI device id names them. */
    public record Sku(GpuModel model, Variant variant) {
    }

    private static final Map<String, Sku> BY_NAME = new HashMap<>();
    private static final Map<Integer, Sku> BY_PCI_ID = new HashMap<>();
    private static final List<Pattern> RULES = new ArrayList<>();
    /**
     * The name the NVIDIA driver prints for a GPU its name table lacks (seen for GB200 and RTX PRO 5000 Blackwell in
     * nccl-tests rank lines): it names no model.
     */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\s*(nvidia\\s+)?graphics device\\s*",
            Pattern.CASE_INSENSITIVE);

    static {
        for (GpuModel m : GpuModelTable.MODELS) {
            Sku first = new Sku(m, m.defaultVariant());
            put(m.name(), first);
            for (String a : m.aliases()) {
                put(a, first);
            }
            for (Variant v : m.variants()) {
                put(v.name(), new Sku(m, v));
                if (v.pciDeviceId() >= 0 && BY_PCI_ID.put(v.pciDeviceId(), new Sku(m, v)) != null) {
                    throw new IllegalStateException("PCI device id listed twice: " + v.pciDeviceId());
                }
            }
            RULES.add(Pattern.compile(m.textRule(), Pattern.CASE_INSENSITIVE));
        }
    }

    private GpuModels() {
    }

    private static void put(String name, Sku sku) {
        Sku old = BY_NAME.put(key(name), sku);
        if (old != null && old.model() != sku.model()) {
            throw new IllegalStateException("GPU name '" + name + "' names " + old.model().name() + " and "
                    + sku.model().name());
        }
    }

    private static String key(String name) {
        return name.replace('_', ' ').trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /**
     * The lowest compute capability among the database's GPUs whose host link is of a PCIe generation: what a GPU known
     * only by its link speed is at least (a Gen5 GPU link means Hopper or later: H100 PCIe, the first Gen5 GPU).
     *
     * @param gen PCIe generation number
     * @return sm x 10, empty when no GPU of the database has that generation
     */
    public static OptionalInt lowestSmOnPcieGen(int gen) {
        return all().stream().filter(m -> m.pcieGen().number() == gen).mapToInt(GpuModel::sm).min();
    }

    /** @return every model, in lookup order */
    public static List<GpuModel> all() {
        return GpuModelTable.MODELS;
    }

    /**
     * @param name a model name, alias or SKU name, e.g. {@code NVIDIA H100 80GB HBM3} or {@code A100-SXM4-40GB}
     *             (case, repeated spaces and underscores for spaces ignored)
     * @return the model and variant (the default variant for a model name or alias), empty when the name is unknown
     */
    public static Optional<Sku> sku(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(BY_NAME.get(key(name)));
    }

    /**
     * Device memory of a GPU named as a user or a file names it: the SKU's own when the name is a SKU name (for
     * example {@code A100-PCIE-40GB}), else the default variant's of the model it names exactly or by its text rule
     * ({@link #find}).
     *
     * @param name a model name, alias, SKU name or GPU name text; null gives 0
     * @return memory, bytes (2^30 B per datasheet "GB"), 0 when the name is unknown
     */
    public static long memoryBytes(String name) {
        Optional<Sku> sku = sku(name);
        if (sku.isPresent()) {
            return sku.get().variant().memoryBytes();
        }
        return find(name).map(GpuModel::memoryBytes).orElse(0L);
    }

    /**
     * Names to offer for a GPU name the database does not know: its models whose name shares a word (letters and
     * digits, two or more) with the text, e.g. "H100 NVL (NVLink bridge)" for "H999 NVL".
     *
     * @param text the unknown name
     * @return model names in database order, possibly empty
     */
    public static List<String> sharingAWord(String text) {
        List<String> words = words(text);
        return all().stream().map(GpuModel::name)
                .filter(n -> words.stream().anyMatch(w -> w.length() > 1 && words(n).contains(w))).toList();
    }

    /**
     * Names to offer for a GPU name the database does not know exactly ({@link #sku} is empty): first the model its
     * text rule recognises ({@link #find}: "A100-SXM9" is A100 SXM) with its variants, then the models sharing a word
     * with it ({@link #sharingAWord}: "h100" gives the PCIe, NVL and SXM boards), then the database's model and
     * variant names nearest to the text by edit distance (Levenshtein, on the names with case, underscores and
     * repeated spaces ignored), ties in database order.
     *
     * @param text  the unknown name
     * @param limit at most this many names
     * @return model and variant names, nearest first
     */
    public static List<String> nearest(String text, int limit) {
        Set<String> out = new LinkedHashSet<>();
        find(text).ifPresent(m -> {
            out.add(m.name());
            m.variants().forEach(v -> out.add(v.name()));
        });
        out.addAll(sharingAWord(text));
        String k = key(text);
        List<String> names = new ArrayList<>();
        for (GpuModel m : all()) {
            names.add(m.name());
            m.variants().forEach(v -> names.add(v.name()));
        }
        names.stream().distinct().sorted(Comparator.comparingInt(n -> editDistance(k, key(n)))).forEach(out::add);
        return out.stream().limit(limit).toList();
    }

    /** @return the Levenshtein distance of two strings: the fewest one-character insertions, deletions, changes */
    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int change = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(change, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static List<String> words(String text) {
        return List.of(text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"));
    }

    /** @param name a model name, alias or SKU name; @return the model, empty when the name is unknown */
    public static Optional<GpuModel> byName(String name) {
        return sku(name).map(Sku::model);
    }

    /**
     * Recognises a model in free text: first as an exact name, else by the first model (in database order) whose
     * {@link GpuModel#textRule()} is found in the text, e.g. {@code "8x H100 80GB HBM3 SXM per node"} gives H100 SXM.
     * The driver's placeholder {@code NVIDIA Graphics Device} names no model (empty), so a caller falls back to other
     * text such as the file's hardware header.
     *
     * @param text a GPU name as printed, or a header's hardware text; null gives empty
     * @return the model, empty when no rule matches
     */
    public static Optional<GpuModel> find(String text) {
        if (text == null || PLACEHOLDER.matcher(text).matches()) {
            return Optional.empty();
        }
        Optional<GpuModel> exact = byName(text);
        if (exact.isPresent()) {
            return exact;
        }
        for (int i = 0; i < RULES.size(); i++) {
            if (RULES.get(i).matcher(text).find()) {
                return Optional.of(GpuModelTable.MODELS.get(i));
            }
        }
        return Optional.empty();
    }

    /** @param deviceId a PCI device id of vendor 0x10de, e.g. {@code 0x2330}; @return its SKU, if recorded */
    public static Optional<Sku> byPciDeviceId(int deviceId) {
        return Optional.ofNullable(BY_PCI_ID.get(deviceId));
    }

    /** @param sm compute capability x 10; @return the models of that sm, in database order (may be empty) */
    public static List<GpuModel> bySm(int sm) {
        return GpuModelTable.MODELS.stream().filter(m -> m.sm() == sm).toList();
    }

    /**
     * The NVLink generation of GPUs of an sm, for readers that know the sm but not the model.
     *
     * @param sm compute capability x 10
     * @return the generation of the first model of that sm with NVLink, empty when none has NVLink
     */
    public static Optional<NvlinkGen> nvlinkOfSm(int sm) {
        return bySm(sm).stream().filter(GpuModel::hasNvlink).map(GpuModel::nvlink).findFirst();
    }

    /** @return the sm values of models with NVLink, ascending, e.g. for an error message */
    public static List<Integer> nvlinkSms() {
        return GpuModelTable.MODELS.stream().filter(GpuModel::hasNvlink).map(GpuModel::sm).distinct().sorted()
                .toList();
    }
}
