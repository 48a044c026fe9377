package dev.rekon.modules.publish.plan;

import java.util.List;
import java.util.Map;

/**
 * A published module as the promotion plan sees it, for {@code GET /modules} and the status page: what each
 * channel offers, each published version (its template, signature state, the channels offering it and the Kymas
 * running it), the Kymas that list the module, and where each promotion rule stands.
 */
public record ModuleReport(String namespace, String module, String component, Map<String, String> channels,
        List<VersionRow> versions, List<KymaFollower> kymas, List<ChannelPromotion> promotions) {

    /** One published version; {@code signature} is the check's reason ({@code SignatureVerified}, ...). */
    public record VersionRow(String version, String template, String signature, List<String> channels,
            List<String> kymas) {
    }
}
