package dev.collsim.validation.compare;

import dev.collsim.topology.catalog.HostType;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a run spreads its hosts over multi-host NVLink domains (GB200 NVL72 racks), as the run's title or the header's
 * {@code nodes_x_gpus} entry for its host count states it: "32 hosts, 2 racks" is 16 trays in each of 2 racks, not
 * the 18 trays of a full first rack and 14 of a second. It matters because NCCL makes each NVLink domain (MNNVL
 * clique) one node ({@code src/graph/topo.cc}, the clique id groups ranks; fact sheet §5: "each host, or each MNNVL
 * clique, is one node"): the ranks per node set what crosses the network (an AllToAll rank sends (n - ranks per
 * node) / n of its data over its NIC) and the NICs per node. Hosts are split evenly, ceil(hosts / domains) per domain
 * with the last taking the rest. With no such statement the hosts fill whole domains in order, as {@code -c NAMExN}
 * builds them. Stateless.
 */
final class HeaderRacks {

    /** "2 racks", "3 NVL72 racks", "2 NVLink domains", "2 NVL domains". */
    private static final Pattern DOMAINS = Pattern.compile(
            "\\b(\\d+)\\s+(?:nvl\\d*\\s+)?(?:racks|nvl(?:ink)?\\d*\\s+domains)\\b");
    /** a header entry {@code 32x4 (2 racks)}: hosts x GPUs, then the domain count. */
    private static final Pattern ENTRY = Pattern.compile("\\b(\\d+)\\s*x\\s*\\d+\\s*\\(([^)]*)\\)");

    private HeaderRacks() {
    }

    /**
     * @param d           the dataset
     * @param type        the catalog host type
     * @param hosts       hosts of the run
     * @param assumptions where to say what was read
     * @return hosts of the run in each NVLink domain: the host type's domain size unless the file states more
     *         domains than a full fill needs
     */
    static int hostsPerDomain(Dataset d, HostType type, int hosts, List<String> assumptions) {
        int size = type.hostsPerNvlinkDomain();
        int domains = statedDomains(d, hosts);
        if (size <= 1 || domains < 2 || hosts < domains) {
            return size;
        }
        int per = (hosts + domains - 1) / domains;
        if (per >= size || (hosts + per - 1) / per != domains) {
            return size;
        }
        assumptions.add(hosts + " hosts over " + domains + " NVLink domains (racks) as the file states, " + per
                + " per domain of " + size + "; NCCL makes each domain one node");
        return per;
    }

    /** @return the domain count the run's title, else the header entry for this host count, states; 0 for none */
    static int statedDomains(Dataset d, int hosts) {
        int fromLabel = domains(d.label());
        if (fromLabel > 0) {
            return fromLabel;
        }
        Matcher m = ENTRY.matcher(d.header().text("nodes_x_gpus"));
        while (m.find()) {
            if (Integer.parseInt(m.group(1)) == hosts) {
                return domains(m.group(2));
            }
        }
        return 0;
    }

    private static int domains(String text) {
        Matcher m = DOMAINS.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * The built host that holds the run's host h: h's domain, then its place in it.
     *
     * @param h          host of the run, from 0
     * @param perDomain  {@link #hostsPerDomain}
     * @param domainSize hosts per domain of the host type
     * @return host index in the built cluster
     */
    static int builtHost(int h, int perDomain, int domainSize) {
        return perDomain >= domainSize ? h : h / perDomain * domainSize + h % perDomain;
    }
}
