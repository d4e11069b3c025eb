package dev.collsim.hardware;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The NIC database: the network adapter families collsim's host catalog names, each with its host interface's PCIe
 * generation and lanes, its port speed and their source ({@link NicModel}). Look a family up by free text such as a catalog row's
 * NIC column ({@link #find}). Adapters whose PCIe interface is not published (AWS EFA, Google's GPU NICs behind
 * TCPX/TCPXO) are not in it: a catalog host gives such a NIC the link of the port it sits on. Stateless.
 */
public final class NicModels {

    /** One rule of the database: a pattern on lower-case text and the family it names. */
    private record Rule(Pattern text, NicModel model) {
    }

    /** The database, in lookup order. */
    private static final List<Rule> RULES = List.of(
            rule("connectx-?6|\\bcx-?6\\b", new NicModel("NVIDIA ConnectX-6", PcieGen.GEN4, 16, 200,
                    "NVIDIA ConnectX-6 VPI adapter datasheet: HDR 200 Gb/s, PCIe Gen 3.0/4.0 x16 host interface (x32"
                    + " only with Socket Direct)")),
            rule("connectx-?7|\\bcx-?7\\b", new NicModel("NVIDIA ConnectX-7", PcieGen.GEN5, 16, 400,
                    "NVIDIA ConnectX-7 adapter datasheet: NDR 400 Gb/s, PCIe Gen 5.0 host interface, x16 (up to x32"
                    + " only with Socket Direct or a multi-host auxiliary card)")),
            rule("connectx-?8|\\bcx-?8\\b", new NicModel("NVIDIA ConnectX-8 SuperNIC", PcieGen.GEN6, 16, 800,
                    "NVIDIA ConnectX-8 SuperNIC datasheet: XDR 800 Gb/s, PCIe Gen 6.0 with a built-in PCIe switch"
                    + " (48 lanes); its host (GPU) link x16, as on GB300 NVL72 (NVIDIA at Hot Chips 2025)")),
            rule("bluefield-?3|\\bbf-?3\\b", new NicModel("NVIDIA BlueField-3", PcieGen.GEN5, 16, 400,
                    "NVIDIA BlueField-3 DPU datasheet: up to 400 Gb/s, PCIe Gen 5.0 x16 host interface (32 lanes only"
                    + " bifurcated)")));

    private NicModels() {
    }

    private static Rule rule(String regex, NicModel model) {
        return new Rule(Pattern.compile(regex), model);
    }

    /** @return every family of the database, in lookup order */
    public static List<NicModel> all() {
        return RULES.stream().map(Rule::model).toList();
    }

    /**
     * The family a free text names: the first rule whose pattern occurs in the text, case ignored.
     *
     * @param text e.g. {@code ConnectX-7}, {@code CX-8}, {@code NVIDIA BlueField-3}; null allowed
     * @return the family, empty when the text names none
     */
    public static Optional<NicModel> find(String text) {
        String t = text == null ? "" : text.toLowerCase(Locale.ROOT);
        return RULES.stream().filter(r -> r.text().matcher(t).find()).map(Rule::model).findFirst();
    }
}
