package dev.rekon.testing;

import static io.restassured.RestAssured.given;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The application's Kubernetes API calls so far, per series of its timer (method, resource, status), from /q/metrics. */
public final class ApiCallSeries {

    private static final Pattern COUNT = Pattern.compile(
            "(?m)^rekon_api_calls_seconds_count(\\{[^}]*}) ([0-9.E+-]+)$");

    private ApiCallSeries() {
    }

    public static Map<String, Double> now() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = COUNT.matcher(metrics);
        Map<String, Double> series = new TreeMap<>();
        while (m.find()) {
            series.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return series;
    }

    /** The series that grew (or shrank) between two readings, by how much. */
    public static Map<String, Double> grown(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> grown = new TreeMap<>();
        after.forEach((series, n) -> {
            double d = n - before.getOrDefault(series, 0.0);
            if (d != 0) {
                grown.put(series, d);
            }
        });
        return grown;
    }
}
