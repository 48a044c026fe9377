package dev.rekon.rollouts.view;

/**
 * The names rollouts are known by on the cluster: the API groups of the ImageDeploy kinds Rekon reads, and the
 * labels its Deployments carry. Views, watches, plans and writes all name them from here.
 */
public final class RolloutNames {

    /** Rekon's own ImageDeploy kind. */
    public static final String GROUP = "rekon.dev";
    /** kpush's ImageDeploy kind, read beside Rekon's while a cluster moves over. */
    public static final String KPUSH_GROUP = "crd.whizzosoftware.com";
    /** {@code rekon} on a Deployment Rekon created. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The name of the ImageDeploy a Deployment Rekon created belongs to. */
    public static final String IMAGEDEPLOY_LABEL = "rekon.dev/imagedeploy";

    private RolloutNames() {
    }
}
