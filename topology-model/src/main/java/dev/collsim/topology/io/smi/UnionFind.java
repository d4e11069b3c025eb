package dev.collsim.topology.io.smi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Disjoint sets over the indices 0..n-1 (path halving), for grouping devices by label. Not thread-safe. */
final class UnionFind {

    private final int[] parent;

    UnionFind(int n) {
        parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
    }

    int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    /** @return the groups among {@code members}, each in ascending order, groups ordered by their first member */
    List<List<Integer>> groups(List<Integer> members) {
        Map<Integer, List<Integer>> byRoot = new LinkedHashMap<>();
        members.stream().sorted().forEach(m -> byRoot.computeIfAbsent(find(m), r -> new ArrayList<>()).add(m));
        return new ArrayList<>(byRoot.values());
    }
}
