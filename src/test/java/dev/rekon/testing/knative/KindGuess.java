package dev.rekon.testing.knative;

import java.util.Locale;

/**
 * The resource Knative watches for a kind: the same guess as {@code meta.UnsafeGuessKindToResource} of
 * k8s.io/apimachinery, which Knative's ApiServerSource reconciler makes for its access check and for the adapter's
 * configuration. A kind whose CRD's plural differs from the guess is never watched (docs/knative.md).
 */
public final class KindGuess {

    private KindGuess() {
    }

    public static String resource(String kind) {
        String singular = kind.toLowerCase(Locale.ROOT);
        if (singular.isEmpty() || singular.endsWith("endpoints")) {
            return singular;
        }
        if (singular.endsWith("s")) {
            return singular + "es";
        }
        if (singular.endsWith("y")) {
            return singular.substring(0, singular.length() - 1) + "ies";
        }
        return singular + "s";
    }
}
