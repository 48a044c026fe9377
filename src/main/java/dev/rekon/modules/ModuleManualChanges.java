package dev.rekon.modules;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ConflictException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.apply.ModuleGateway;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModuleHolds.Hold;
import dev.rekon.modules.plan.ModuleHolds;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;

/**
 * Reports module Deployments changed by hand, once per change: a Warning Event on the Deployment, and the change
 * recorded in its annotation {@value ModuleDeployment#MANUAL_CHANGE_ANNOTATION} (a metadata-only patch, guarded by
 * the resourceVersion the change was seen at), so that the next event or resync seeing the same change writes
 * nothing. Reporting is information: a report that cannot be written is logged and tried again next time; one that
 * lost a race goes up as the conflict it is, so the loop plans again from a fresh read.
 */
@ApplicationScoped
public class ModuleManualChanges {

    private static final Logger LOG = Logger.getLogger(ModuleManualChanges.class);

    @Inject
    ModuleGateway gateway;

    @Inject
    EventRecorder events;

    public void report(List<Hold> holds) {
        holds.stream().filter(Hold::needsReport).forEach(this::report);
    }

    private void report(Hold hold) {
        ModuleDeployment d = hold.deployment();
        try {
            gateway.patch(new DeploymentPatch(d.ref(), d.resourceVersion(), null, null, null, null, null, null,
                    ModuleDeployment.changeKey(hold.changes())));
        } catch (ConflictException e) {
            // The Deployment changed since it was planned from: the loop plans again from a fresh read.
            throw e;
        } catch (TransientFailureException e) {
            // Only the report failed: the hold stands, and with its change key unrecorded the next plan reports it.
            LOG.infof("manual change of %s not reported this time: %s", d.ref(), e.getMessage());
            return;
        }
        events.warning(d.ref(), ModuleHolds.MANUAL_CHANGE, hold.message());
    }
}
