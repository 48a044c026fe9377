package dev.rekon.modules.lifecycle.status;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.modules.lifecycle.KymaModuleService;
import dev.rekon.modules.lifecycle.apply.KubeApplyIdentity;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The lifecycle modules' part of the page (area {@code modules}): every module of every Kyma the watch holds,
 * planned now by the one loop in report mode ({@link KymaModuleService#rows}), with no API call and no registry
 * read: from the watched Kyma and release objects, the manifests this replica read, and each module's objects as
 * its last attempt left them; and who applies module objects.
 */
@ApplicationScoped
public class LifecycleReport implements AreaReport {

    @Inject
    KymaModuleService service;

    @Inject
    KubeApplyIdentity identity;

    @Override
    public String area() {
        return "modules";
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        List<LifecycleRow> rows = service.rows(namespace);
        return report.withSection(new LifecycleSection(identity.serviceAccount().orElse(null),
                "module objects are applied " + identity.description(), LifecycleSection.SCOPE,
                (int) rows.stream().filter(LifecycleRow::problem).count(), rows));
    }
}
