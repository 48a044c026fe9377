package dev.rekon.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.KubernetesClient;

/** The WATCH requests an apiserver is serving now, read from its own long-running-request gauge. */
public final class ApiServerWatches {

    private ApiServerWatches() {
    }

    /** The running WATCH requests by group/resource ({@code core/configmaps}, {@code apps/deployments}, ...). */
    public static Map<String, Integer> byResource(KubernetesClient k8s) {
        String metrics = k8s.raw(k8s.getMasterUrl().toString().replaceAll("/$", "") + "/metrics");
        Map<String, Integer> out = new TreeMap<>();
        // Current servers count long-running requests in apiserver_longrunning_requests; v1.20 in its older gauge.
        String name = metrics.contains("apiserver_longrunning_requests{") ? "apiserver_longrunning_requests"
                : "apiserver_longrunning_gauge";
        Matcher m = Pattern.compile("^" + name + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE).matcher(metrics);
        while (m.find()) {
            Map<String, String> labels = labels(m.group(1));
            if ("WATCH".equals(labels.get("verb")) && !labels.getOrDefault("resource", "").isEmpty()) {
                String group = labels.getOrDefault("group", "");
                String key = (group.isEmpty() ? "core" : group) + "/" + labels.get("resource");
                out.merge(key, (int) Double.parseDouble(m.group(2)), Integer::sum);
            }
        }
        return out;
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> out = new TreeMap<>();
        Matcher m = Pattern.compile("(\\w+)=\"([^\"]*)\"").matcher(text);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }
}
