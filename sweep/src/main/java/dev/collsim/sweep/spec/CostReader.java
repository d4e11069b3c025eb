package dev.collsim.sweep.spec;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.io.yaml.YamlNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the spec's {@code cost:} mapping. Every value carries its unit; prices name their currency (any three-letter
 * code, the same in every price):
 * <pre>
 * cost:
 *   gpu: 30000 USD              # per GPU, host share included; or per GPU model (names as the GPU database,
 *                               # e.g. {A100 SXM: 15000 USD, H100 SXM: 30000 USD})
 *   nic-port: 1500 USD          # per compute NIC port cabled to the fabric
 *   switch-port: 900 USD        # per switch port in use
 *   cable: 300 USD              # per network cable
 *   gpu-hour: 2.5 USD/h         # rent per GPU-hour
 *   hours: 720 h                # run time the rent and the energy are paid for
 *   train-tokens: 1e12          # plans: run time = tokens / predicted tokens per second (K, M, B, T = 1e3..1e12)
 *   power-per-gpu: 1200 W       # optional: power per GPU, host share included
 *   energy: 0.12 USD/kWh        # price of energy
 * </pre>
 * Stateless.
 */
final class CostReader {

    static final List<String> KEYS = List.of("gpu", "nic-port", "switch-port", "cable", "gpu-hour", "hours",
            "train-tokens", "power-per-gpu", "energy");

    private static final Pattern AMOUNT = Pattern.compile("([0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)\\s*(.*)");

    private CostReader() {
    }

    /** @return the cost model, or {@link CostModel#NONE} without {@code cost:} (problems recorded in {@code at}) */
    static CostModel read(Located at, YamlNode root) {
        YamlNode c = root.get("cost");
        if (c == null || !at.mapping(c, KEYS)) {
            return CostModel.NONE;
        }
        String[] currency = {null};
        Map<String, Double> models = new TreeMap<>();
        double gpu = c.get("gpu") != null && c.get("gpu").isMap() ? gpuModels(at, c.get("gpu"), models, currency)
                : price(at, c, "gpu", "", currency);
        double nic = price(at, c, "nic-port", "", currency);
        double sw = price(at, c, "switch-port", "", currency);
        double cable = price(at, c, "cable", "", currency);
        double gpuHour = price(at, c, "gpu-hour", "/h", currency);
        double energy = price(at, c, "energy", "/kWh", currency);
        double hours = amount(at, c, "hours", "h", "hours, e.g. 720 h");
        double watts = amount(at, c, "power-per-gpu", "W", "watts, e.g. 1200 W");
        double tokens = tokens(at, c);
        if ((gpuHour > 0 || energy > 0) && hours == 0 && tokens == 0) {
            at.add(c, "'gpu-hour' and 'energy' are paid over a run time: give 'hours' (e.g. 720 h) or, for plans,"
                    + " 'train-tokens'");
        }
        if (energy > 0 != watts > 0) {
            at.add(c, "energy cost needs both 'power-per-gpu' (e.g. 1200 W) and 'energy' (e.g. 0.12 USD/kWh)");
        }
        return new CostModel(currency[0] == null ? "USD" : currency[0], gpu, models, nic, sw, cable, gpuHour, hours, tokens,
                watts, energy);
    }

    /** A price: {@code NUMBER CUR} followed by {@code per} (e.g. {@code /h}); the currency must match the others. */
    private static double price(Located at, YamlNode c, String key, String per, String[] currency) {
        String t = at.text(c, key);
        if (t == null) {
            return 0;
        }
        Matcher m = AMOUNT.matcher(t);
        String unit = m.matches() ? m.group(2).trim() : "";
        String cur = unit.endsWith(per) ? unit.substring(0, unit.length() - per.length()).trim() : "";
        if (!m.matches() || !cur.matches("[A-Za-z]{3}")) {
            at.add(c.get(key), "'" + t + "' is not a price; allowed: a number >= 0 and a three-letter currency"
                    + (per.isEmpty() ? ", e.g. 1500 USD" : " per " + per.substring(1) + ", e.g. 2.5 USD" + per));
            return 0;
        }
        cur = cur.toUpperCase(Locale.ROOT);
        if (currency[0] != null && !currency[0].equals(cur)) {
            at.add(c.get(key), "currency " + cur + " differs from " + currency[0] + " given before; every price must"
                    + " be in one currency");
            return 0;
        }
        currency[0] = cur;
        return Double.parseDouble(m.group(1));
    }

    /** Per-model GPU prices; {@code default} prices the models not listed. @return the default, or NaN */
    private static double gpuModels(Located at, YamlNode g, Map<String, Double> out, String[] currency) {
        double def = Double.NaN;
        for (Map.Entry<String, YamlNode> e : g.fields().entrySet()) {
            double price = price(at, g, e.getKey(), "", currency);
            if (e.getKey().equals("default")) {
                def = price;
                continue;
            }
            Optional<GpuModel> m = GpuModels.byName(e.getKey());
            if (m.isEmpty()) {
                at.add(e.getValue(), "unknown GPU model '" + e.getKey() + "'; allowed: default, or a model of the GPU"
                        + " database, e.g. A100 SXM, H100 SXM, H200, B200");
            } else {
                out.put(m.get().name(), price);
            }
        }
        return def;
    }

    /** A quantity with a fixed unit, e.g. {@code 720 h}. */
    private static double amount(Located at, YamlNode c, String key, String unit, String allowed) {
        String t = at.text(c, key);
        if (t == null) {
            return 0;
        }
        Matcher m = AMOUNT.matcher(t);
        if (!m.matches() || !m.group(2).trim().equals(unit)) {
            at.add(c.get(key), "'" + t + "' is not a number of " + allowed + " (the unit " + unit + " is required)");
            return 0;
        }
        return Double.parseDouble(m.group(1));
    }

    private static double tokens(Located at, YamlNode c) {
        String t = at.text(c, "train-tokens");
        if (t == null) {
            return 0;
        }
        Matcher m = AMOUNT.matcher(t);
        String s = m.matches() ? m.group(2).trim().toUpperCase(Locale.ROOT) : "?";
        double scale = switch (s) {
            case "" -> 1;
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "B" -> 1e9;
            case "T" -> 1e12;
            default -> -1;
        };
        if (scale < 0 || Double.parseDouble(m.group(1)) <= 0) {
            at.add(c.get("train-tokens"), "'" + t + "' is not a token count; allowed: a number > 0 with an optional"
                    + " K, M, B or T (1e3, 1e6, 1e9, 1e12), e.g. 2T");
            return 0;
        }
        return Double.parseDouble(m.group(1)) * scale;
    }
}
