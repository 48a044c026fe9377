package dev.rekon.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Latencies of one measured run and its wall time. */
public record Stats(List<Double> millis, double wallSeconds) {

    public static Stats of(List<Double> millis, double wallSeconds) {
        List<Double> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        return new Stats(sorted, wallSeconds);
    }

    public double p(double q) {
        if (millis.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * millis.size()) - 1;
        return millis.get(Math.max(0, Math.min(millis.size() - 1, i)));
    }

    public double mean() {
        return millis.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    public double throughput() {
        return millis.size() / wallSeconds;
    }
}
