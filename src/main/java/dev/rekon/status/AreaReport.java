package dev.rekon.status;

import java.time.Instant;

/**
 * One area's part of the status page: the plans the one loop makes for the area's keys, in report mode (nothing
 * written, no API call: from the watch caches), rendered as the area's {@link AreaSection} of the
 * {@link StatusReport}; what no watch holds comes from what the area's last attempt read (a DeclaredState's tip
 * and objects; the buildpackage or module manifest last read for a digest; an ImagePromotion's source Image and
 * stages), through {@code pipeline/ReportOnly}. One report source, planned now: no area renders a last plan, none
 * the status as written. See "The report: one shape" in the
 * architecture notes. The page holds no decision of its own. Implementations are CDI beans; {@link StatusRoutes} asks every one
 * whose {@link #area()} the request wants.
 */
public interface AreaReport {

    /** The {@code ?area=} name the rows belong to: {@code rollouts}, {@code buildpacks}, {@code modules}, ... */
    String area();

    /**
     * The report with this area's section added ({@link StatusReport#withSection}).
     *
     * @param read      the watch caches as this request reads them (one deadline, naming what is still loading)
     * @param namespace only this namespace (and no cluster-scoped object), or null for every allowed one
     */
    StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now);
}
