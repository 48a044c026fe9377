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
    /** The kind an ImageDeploy's REF= images name by default: kpack's Image. */
    public static final String KPACK_IMAGE_KIND = "Image";
    /**
     * The kind they name when its {@code spec.refKind} says so: Rekon's PromotedImage, whose status says what a kpack
     * Image's does, written in a stage by a promotion.
     */
    public static final String PROMOTED_IMAGE_KIND = "PromotedImage";
    /** The plural of PromotedImages in {@value #GROUP}, v1alpha1. */
    public static final String PROMOTED_IMAGE_PLURAL = "promotedimages";
    /** {@code rekon} on a Deployment Rekon created. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The name of the ImageDeploy a Deployment Rekon created belongs to. */
    public static final String IMAGEDEPLOY_LABEL = "rekon.dev/imagedeploy";

    private RolloutNames() {
    }
}
