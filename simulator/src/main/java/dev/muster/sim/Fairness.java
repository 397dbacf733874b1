package dev.muster.sim;

/** Deserved shares by weight, as the proportion plugin computes them: water-filling capped at demand. */
final class Fairness {
    private Fairness() {}

    /**
     * Splits {@code capacity} among queues in proportion to their weights; a queue never deserves more
     * than it demands, and what it leaves goes to the others by weight.
     */
    static double[] deserved(int[] weights, double[] demand, double capacity) {
        double[] deserved = new double[weights.length];
        boolean[] capped = new boolean[weights.length];
        double remaining = capacity;
        while (remaining > 1e-9) {
            double weightSum = 0;
            for (int q = 0; q < weights.length; q++) {
                if (!capped[q] && demand[q] > deserved[q] + 1e-9) {
                    weightSum += weights[q];
                }
            }
            if (weightSum == 0) {
                break;
            }
            double handedOut = 0;
            for (int q = 0; q < weights.length; q++) {
                if (capped[q] || demand[q] <= deserved[q] + 1e-9) {
                    continue;
                }
                double offer = remaining * weights[q] / weightSum;
                double taken = Math.min(offer, demand[q] - deserved[q]);
                deserved[q] += taken;
                handedOut += taken;
                if (taken < offer) {
                    capped[q] = true;
                }
            }
            remaining -= handedOut;
            if (handedOut <= 1e-9) {
                break;
            }
        }
        return deserved;
    }
}
