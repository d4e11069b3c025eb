package dev.collsim.hardware;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The CPU database: the server CPU families collsim's host catalog names, each with the PCIe generation and lanes of
 * its root ports and its socket-to-socket links, and their sources ({@link CpuModel}). Look a family up by free text
 * such as a catalog row's CPU column ({@link #find}). A socket link's bandwidth per direction is worked out as
 * transfers per second times bytes per transfer: a QPI or UPI link moves 2 bytes per transfer each way (16 data bits
 * of its 20 lanes; Intel Xeon Scalable platform brief: UPI 10.4 GT/s = 20.8 GB/s per direction), an x16 xGMI link 16
 * bits, one per lane, as PCIe (its encoding overhead is not published and not charged). Stateless.
 */
public final class CpuModels {

    /**
     * NVLink-C2C between a Grace CPU and the GPUs of its superchip, GB/s per direction: 900 GB/s of total (both
     * directions) bandwidth per superchip (NVIDIA GH200 Grace Hopper and GB200 NVL72 datasheets), shared by the GPUs
     * on that Grace (one on GH200, two on GB200/GB300: 225 each, the GB200 tray's assumption of an even split).
     */
    public static final double GRACE_C2C_GBPS = 450.0;

    /** One rule of the database: a pattern on lower-case text and the family it names. */
    private record Rule(Pattern text, CpuModel model) {
    }

    private static final String INTEL = "GenuineIntel";
    private static final String AMD = "AuthenticAMD";

    /**
     * The database, in lookup order: a rule that a later one's text would also match comes first (8462Y+ before the
     * other Sapphire Rapids parts).
     */
    private static final List<Rule> RULES = List.of(
            rule("e5-\\d{4}[a-z]* v4", new CpuModel("Intel Xeon E5 v4 (Broadwell-EP)", INTEL, PcieGen.GEN3, 40,
                    "QPI", 2, 9.6, 19.2, "Intel ARK Xeon E5-2698 v4: PCI Express 3.0, 40 lanes, 2 QPI links at"
                    + " 9.6 GT/s (2 B per transfer: 19.2 GB/s per link and direction)")),
            rule("\\b(platinum|gold|silver|bronze) [3-8]1\\d\\d|skylake", new CpuModel(
                    "Intel Xeon Scalable 1st gen (Skylake-SP)", INTEL, PcieGen.GEN3, 48, "UPI", 3, 10.4, 20.8,
                    "Intel ARK Xeon Gold 6148: PCI Express 3.0, 48 lanes, 3 UPI links at 10.4 GT/s (20.8 GB/s per"
                    + " link and direction); the ABCI Compute Node (V) block diagram (aistabci/abci-docs"
                    + " en/docs/img/compute-node-v-diagram.png) draws its two 6148s joined by UPI x3 at 10.4 GT/s")),
            rule("\\b(platinum|gold|silver|bronze) [3-8]2\\d\\d|cascade lake", new CpuModel(
                    "Intel Xeon Scalable 2nd gen (Cascade Lake)", INTEL, PcieGen.GEN3, 48, "UPI", 3, 10.4, 20.8,
                    "Intel ARK Xeon Platinum 8280 (AWS's 8275CL is its custom part): PCI Express 3.0, 48 lanes, 3 UPI"
                    + " links at 10.4 GT/s (20.8 GB/s per link and direction)")),
            rule("\\b(platinum|gold|silver) [3-8]3\\d\\d|ice lake", new CpuModel(
                    "Intel Xeon Scalable 3rd gen (Ice Lake)", INTEL, PcieGen.GEN4, 64, "UPI", 3, 11.2, 22.4,
                    "Intel ARK Xeon Platinum 8380: PCI Express 4.0, 64 lanes, 3 UPI links at 11.2 GT/s")),
            rule("8462y", new CpuModel("Intel Xeon Scalable 4th gen (Sapphire Rapids), 3 UPI links", INTEL,
                    PcieGen.GEN5, 80, "UPI", 3, 16, 32, "Intel ARK Xeon Platinum 8462Y+: PCI Express 5.0, 80 lanes,"
                    + " 3 UPI links at 16 GT/s")),
            rule("\\b(platinum|gold|silver|bronze) [3-9]4\\d\\d|sapphire rapids", new CpuModel(
                    "Intel Xeon Scalable 4th gen (Sapphire Rapids)", INTEL, PcieGen.GEN5, 80, "UPI", 4, 16, 32,
                    "Intel ARK Xeon Platinum 8480+ (8480C, 8481C, 8488C are its cloud and DGX parts): PCI Express"
                    + " 5.0, 80 lanes, 4 UPI links at 16 GT/s")),
            rule("\\b(platinum|gold|silver|bronze) [3-9]5\\d\\d|emerald rapids", new CpuModel(
                    "Intel Xeon Scalable 5th gen (Emerald Rapids)", INTEL, PcieGen.GEN5, 80, "UPI", 4, 20, 40,
                    "Intel ARK Xeon Platinum 8570 (8575C is AWS's part): PCI Express 5.0, 80 lanes, 4 UPI links at"
                    + " 20 GT/s")),
            rule("xeon 6\\b|granite rapids|\\b67\\d\\dp\\b", new CpuModel("Intel Xeon 6 6700P (Granite Rapids)", INTEL,
                    PcieGen.GEN5, 88, "UPI", 4, 24, 48, "Intel ARK Xeon 6776P: PCI Express 5.0, 88 lanes (two"
                    + " sockets), 4 UPI 2.0 links at 24 GT/s")),
            rule("epyc 7\\w\\w2(?!\\d)|\\brome\\b", new CpuModel("AMD EPYC 7002 (Rome)", AMD, PcieGen.GEN4, 128, "xGMI", 4,
                    16, 32, "AMD EPYC 7002 product pages (7742, 7542): 128 lanes of PCIe 4.0. xGMI: 4 x16 links"
                    + " between two sockets (64 lanes per socket: ServeTheHome, AMD EPYC Rome 2P 128-160 PCIe Gen4"
                    + " lanes, 2019). AMD's pages give no xGMI rate; HPE's iLO 5 BIOS registry (AmdXGMILinkSpeed)"
                    + " offers 16 or 18 Gb/s per lane on these platforms (25 and 32 on later ones), the default being"
                    + " the platform's: the lower, 16 GT/s, is taken (18 would give 144 GB/s for 4 links)")),
            rule("epyc 7\\w\\w3(?!\\d)|\\bmilan\\b", new CpuModel("AMD EPYC 7003 (Milan)", AMD, PcieGen.GEN4, 128, "xGMI", 4,
                    16, 32, "AMD EPYC 7003 product pages and datasheet (7763, 7713; AWS 7R13 and OCI 7J13 are custom"
                    + " parts): 128 lanes of PCIe 4.0. xGMI as EPYC 7002 (same socket SP3): 4 x16 links at 16 GT/s,"
                    + " the lower of the 16 and 18 Gb/s a BIOS offers (no AMD figure)")),
            rule("epyc 9\\w\\w4(?!\\d)|\\bgenoa\\b", new CpuModel("AMD EPYC 9004 (Genoa)", AMD, PcieGen.GEN5, 128, "xGMI",
                    4, 32, 64, "AMD 4th Gen EPYC processor architecture white paper: 128 lanes of PCIe 5.0, up to 4"
                    + " xGMI3 links of x16 at up to 32 Gb/s per lane")),
            rule("epyc 9\\w\\w5(?!\\d)|\\bturin\\b", new CpuModel("AMD EPYC 9005 (Turin)", AMD, PcieGen.GEN5, 128, "", 0, 0,
                    0, "AMD EPYC 9005 product pages: 128 lanes of PCIe 5.0 (socket SP5, as EPYC 9004); no xGMI figure"
                    + " was read")),
            rule("\\bgrace\\b", new CpuModel("NVIDIA Grace", "NVIDIA", PcieGen.GEN5, 64, "", 0, 0, 0,
                    "NVIDIA Grace CPU Superchip datasheet: up to 8 PCIe Gen5 x16 per superchip of 2 CPUs (64 lanes"
                    + " each); its CPU-CPU and CPU-GPU links are NVLink-C2C, modelled by the GB200 tray")));

    private CpuModels() {
    }

    private static Rule rule(String regex, CpuModel model) {
        return new Rule(Pattern.compile(regex), model);
    }

    /**
     * CPUID display model (family 6) of each Intel family of the database, what NCCL's {@code ncclTopoGetInterCpuBw}
     * (NCCL 2.30 {@code src/graph/topo.cc}) compares to choose the SMP link figure. Source: Linux
     * {@code arch/x86/include/asm/intel-family.h} (INTEL_BROADWELL_X 0x4F; INTEL_SKYLAKE_X 0x55, Skylake-SP's, which
     * Cascade Lake shares; INTEL_ICELAKE_X 0x6A; INTEL_SAPPHIRERAPIDS_X 0x8F; INTEL_EMERALDRAPIDS_X 0xCF;
     * INTEL_GRANITERAPIDS_X 0xAD).
     */
    private static final Map<String, Integer> INTEL_CPUID_MODEL = Map.of(
            "Intel Xeon E5 v4 (Broadwell-EP)", 0x4F,
            "Intel Xeon Scalable 1st gen (Skylake-SP)", 0x55,
            "Intel Xeon Scalable 2nd gen (Cascade Lake)", 0x55,
            "Intel Xeon Scalable 3rd gen (Ice Lake)", 0x6A,
            "Intel Xeon Scalable 4th gen (Sapphire Rapids), 3 UPI links", 0x8F,
            "Intel Xeon Scalable 4th gen (Sapphire Rapids)", 0x8F,
            "Intel Xeon Scalable 5th gen (Emerald Rapids)", 0xCF,
            "Intel Xeon 6 6700P (Granite Rapids)", 0xAD);

    /**
     * The CPUID family and model NCCL reads for a family of the database (Intel: family 6 and the model of
     * {@link #INTEL_CPUID_MODEL}; other vendors: unknown, as NCCL's choice for them does not depend on them).
     *
     * @param m a family of this database
     * @return {family, model}, or {-1, -1} when not an Intel family of the database
     */
    public static int[] cpuid(CpuModel m) {
        Integer model = INTEL_CPUID_MODEL.get(m.family());
        return model == null ? new int[] {-1, -1} : new int[] {6, model};
    }

    /**
     * The family of the database a CPUID names, as an NCCL topology XML's {@code <cpu vendor familyid modelid>} states
     * it (NCCL 2.30 {@code src/graph/xml.cc ncclTopoGetXmlFromCpu} writes the CPUID's vendor, family and model). Intel:
     * family 6 and the models of {@link #INTEL_CPUID_MODEL}; Sapphire Rapids' model names its general entry (4 UPI
     * links), as CPUID does not tell the 8462Y+ (3 links) apart, and model 0x55 Cascade Lake (the display model does
     * not tell Skylake-SP apart; both have 3 UPI links at 10.4 GT/s). AMD: {@link #AMD_CPUID}.
     *
     * @param vendor CPUID vendor, {@code GenuineIntel} or {@code AuthenticAMD}; null allowed
     * @param family CPUID family (decimal, as the XML writes it), -1 when unknown
     * @param model  CPUID model (decimal), -1 when unknown
     * @return the family, empty when the CPUID names none of the database
     */
    public static Optional<CpuModel> ofCpuid(String vendor, int family, int model) {
        if (INTEL.equals(vendor) && family == 6) {
            return INTEL_CPUID_MODEL.entrySet().stream().filter(e -> e.getValue() == model)
                    .map(Map.Entry::getKey).filter(f -> !f.endsWith("3 UPI links") && !f.contains("Skylake"))
                    .findFirst()
                    .flatMap(CpuModels::family);
        }
        if (AMD.equals(vendor)) {
            return Optional.ofNullable(AMD_CPUID.get(family + "/" + model)).flatMap(CpuModels::family);
        }
        return Optional.empty();
    }

    /**
     * CPUID family/model (decimal) of each AMD family of the database with a socket-link figure. Source: the titles
     * of AMD's Processor Programming References (PPR): Family 17h Model 31h (EPYC 7002 Rome), Family 19h Model 01h
     * (EPYC 7003 Milan), Family 19h Model 11h (EPYC 9004 Genoa); 17h = 23, 19h = 25, 31h = 49, 11h = 17. An Azure ND
     * A100 v4 topology file (EPYC 7V12, Rome) states {@code familyid="23" modelid="49"}.
     */
    private static final Map<String, String> AMD_CPUID = Map.of(
            "23/49", "AMD EPYC 7002 (Rome)",
            "25/1", "AMD EPYC 7003 (Milan)",
            "25/17", "AMD EPYC 9004 (Genoa)");

    /**
     * @param family a family name as {@link CpuModel#family} spells it, e.g. {@code AMD EPYC 7003 (Milan)}
     * @return that family of the database, empty when none has the name
     */
    public static Optional<CpuModel> family(String family) {
        return RULES.stream().map(Rule::model).filter(m -> m.family().equals(family)).findFirst();
    }

    /** @return every family of the database, in lookup order */
    public static List<CpuModel> all() {
        return RULES.stream().map(Rule::model).toList();
    }

    /**
     * The family a free text names: the first rule whose pattern occurs in the text, case ignored.
     *
     * @param text e.g. {@code AMD EPYC 7R13}, {@code Intel Xeon Platinum 8480C}, {@code AMD EPYC (Milan)}; words may
     *             be joined by {@code -} or {@code _} ({@code EPYC-7R13}); null allowed
     * @return the family, empty when the text names none
     */
    public static Optional<CpuModel> find(String text) {
        String t = text == null ? "" : text.toLowerCase(Locale.ROOT);
        // a name typed without quotes joins its words with - or _ (EPYC-7R13, Xeon_Platinum_8480); the rules' own
        // hyphens (E5-2698 v4) are tried first, on the text as written
        String spaced = t.replaceAll("[-_]+", " ");
        return RULES.stream().filter(r -> r.text().matcher(t).find() || r.text().matcher(spaced).find())
                .map(Rule::model).findFirst();
    }
}
