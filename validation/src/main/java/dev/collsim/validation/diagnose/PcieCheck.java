package dev.collsim.validation.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCIe links trained below their capability, as {@code lspci -vv} prints them ({@code LnkCap: ... Speed 16GT/s,
 * Width x16} then {@code LnkSta: Speed 8GT/s (downgraded), Width x8 (downgraded)}) or as NCCL's topology dump
 * gives them ({@code link_speed="8.0 GT/s PCIe" link_width="8"} on a GPU's pci element).
 */
final class PcieCheck implements Check {

    // numbers bounded (at most 3 digits, as a PCIe speed in GT/s and a link width have) so every match parses
    private static final Pattern LNK = Pattern.compile(
            "Lnk(Cap|Sta):.*?Speed\\s*([0-9]{1,3}(?:\\.[0-9]{1,4})?)\\s*GT/s.*?Width\\s*x([0-9]{1,3})(?![0-9])",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern XML = Pattern.compile(
            "link_speed=\"([0-9]{1,3}(?:\\.[0-9]{1,4})?) GT/s[^\"]*\"\\s+link_width=\"([0-9]{1,3})\"");

    @Override
    public List<Finding> run(Subject s) {
        List<Finding.Evidence> ev = new ArrayList<>();
        String cap = null;
        for (int i = 0; i < s.lines().size(); i++) {
            String l = s.lines().get(i);
            Matcher m = LNK.matcher(l);
            if (m.find()) {
                String sw = m.group(2) + "/" + m.group(3);
                if (m.group(1).equalsIgnoreCase("Cap")) {
                    cap = sw;
                } else if (l.toLowerCase(Locale.ROOT).contains("downgraded") || cap != null && !cap.equals(sw)
                        && (Double.parseDouble(m.group(2)) < Double.parseDouble(cap.split("/")[0])
                        || Integer.parseInt(m.group(3)) < Integer.parseInt(cap.split("/")[1]))) {
                    ev.add(s.at(i + 1));
                }
            }
            Matcher x = XML.matcher(l);
            if (x.find() && s.gpu().isPresent() && l.contains("class=\"0x0302")) {
                double expected = s.gpu().get().pcieGen().gtPerSecond();
                if (Double.parseDouble(x.group(1)) < expected || Integer.parseInt(x.group(2)) < 16) {
                    ev.add(s.at(i + 1));
                }
            }
        }
        if (ev.isEmpty()) {
            return List.of();
        }
        return List.of(s.finding(Finding.Kind.PCIE_DOWNGRADED, Finding.Severity.PROBLEM,
                "a PCIe link trained below its speed or width: every byte on it moves at the lower rate (x8 halves "
                        + "it, one generation down halves it); reseat the card or riser, check BIOS link settings",
                ev));
    }
}
