package dev.collsim.topology;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The GPUs of a cluster of identical hosts, in rank order (host, then local index), made on demand from the GPUs of
 * one host instead of stored: element {@code i} is GPU {@code i mod g} of the template host, moved to host
 * {@code i / g} (id {@code h{host}/...}, as {@code catalog.HostContext} names devices). Equal, element by element,
 * to the GPUs of the materialized cluster; O(1) memory for any host count. Immutable.
 */
final class ReplicatedGpus extends AbstractList<Gpu> implements RandomAccess {

    private final List<Gpu> host0;
    private final int hosts;

    /**
     * @param host0 the GPUs of host 0 of the template, by local index; ids start with {@code h0/}
     * @param hosts hosts, >= 1; hosts x GPUs per host must fit an int
     * @throws IllegalArgumentException when an id does not start with {@code h0/} or the count overflows
     */
    ReplicatedGpus(List<Gpu> host0, int hosts) {
        this.host0 = List.copyOf(host0);
        this.hosts = hosts;
        if (hosts < 1 || (long) hosts * host0.size() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(hosts + " hosts of " + host0.size() + " GPUs do not fit a rank list");
        }
        for (Gpu g : host0) {
            if (g.host() != 0 || !g.id().startsWith("h0/")) {
                throw new IllegalArgumentException("template GPU " + g.id() + " is not on host 0 (h0/...)");
            }
        }
    }

    @Override
    public Gpu get(int i) {
        if (i < 0 || i >= size()) {
            throw new IndexOutOfBoundsException("GPU " + i + " of " + size());
        }
        int g = host0.size();
        Gpu t = host0.get(i % g);
        int h = i / g;
        return h == 0 ? t : new Gpu("h" + h + t.id().substring(2), h, t.index(), t.model(), t.sm(), t.memoryBytes(),
                t.busId());
    }

    @Override
    public int size() {
        return hosts * host0.size();
    }

    /** @param host host index; @return that host's GPUs, by local index (empty when out of range) */
    List<Gpu> ofHost(int host) {
        int g = host0.size();
        return host < 0 || host >= hosts ? List.of() : subList(host * g, host * g + g);
    }
}
