package dev.collsim.simulator.schedule;

import java.util.Arrays;

/**
 * The two complementary binary trees NCCL builds over hosts (NCCL 2.30 {@code src/graph/trees.cc},
 * {@code ncclGetBtree} and {@code ncclGetDtree}): tree 0 links rank r (r > 0, b its lowest set bit) to parent
 * {@code (r xor b) | 2b}, or {@code r xor b} when that is out of range; rank 0 is the root. Tree 1 is tree 0
 * mirrored ({@code r -> n-1-r}) when n is even and shifted by one when n is odd, so that most ranks are a leaf
 * in one tree and an inner node in the other. Re-implemented from that description. This class is immutable.
 */
final class DoubleBinaryTree {

    private DoubleBinaryTree() {
    }

    /**
     * @param n    number of tree nodes (hosts), {@code >= 1}
     * @param tree 0 or 1
     * @return parent of each node, -1 for the root
     */
    static int[] parents(int n, int tree) {
        int[] p = new int[n];
        for (int r = 0; r < n; r++) {
            if (tree == 0) {
                p[r] = btreeParent(n, r);
            } else if (n % 2 == 0) {
                int q = btreeParent(n, n - 1 - r);
                p[r] = q < 0 ? -1 : n - 1 - q;
            } else {
                int q = btreeParent(n, (r + n - 1) % n);
                p[r] = q < 0 ? -1 : (q + 1) % n;
            }
        }
        return p;
    }

    private static int btreeParent(int n, int r) {
        if (r == 0) {
            return -1;
        }
        int bit = r & -r;
        int up = (r ^ bit) | (bit << 1);
        return up >= n ? r ^ bit : up;
    }

    /**
     * @param parent parent array (-1 for the root)
     * @return depth of each node (root 0)
     * @throws IllegalStateException when the array has a cycle
     */
    static int[] depths(int[] parent) {
        int n = parent.length;
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        for (int r = 0; r < n; r++) {
            int d = 0;
            int x = r;
            while (x >= 0 && depth[x] < 0) {
                x = parent[x];
                if (++d > n) {
                    throw new IllegalStateException("tree has a cycle at node " + r);
                }
            }
            int base = x < 0 ? -1 : depth[x];
            int y = r;
            int k = d;
            while (y >= 0 && depth[y] < 0) {
                depth[y] = base + k;
                k--;
                y = parent[y];
            }
        }
        return depth;
    }
}
