import { RESET_LINK_NOT_VALID } from '#shared/constants';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '#client/lib/api-client.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useConfirmPasswordReset, usePasswordResetLink } from './api/one-time-links.ts';
import { AuthCard, LinkProblem } from './components/auth-card.tsx';
import { ChoosePasswordForm } from './components/choose-password-form.tsx';

/** /reset-password/:token: the link from the reset email. The new password signs the account out everywhere; then sign in with it. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const link = usePasswordResetLink(token);
  const confirmReset = useConfirmPasswordReset();

  if (link.isPending) return <Spinner className="min-h-screen" label="Checking the link..." />;
  if (link.isError) {
    const message =
      link.error instanceof ApiError && link.error.status === 404
        ? RESET_LINK_NOT_VALID
        : 'The link could not be checked. Please try again.';
    return <LinkProblem title="Choose a new password" message={message} />;
  }
  return (
    <AuthCard title="Choose a new password" subtitle="You will be signed out everywhere, then sign in with the new password.">
      <ChoosePasswordForm
        email={{ editable: false, value: link.data.email }}
        submitLabel="Save new password"
        busyLabel="Saving..."
        onSubmit={async ({ password, confirm }) => {
          const { active_api_keys: keys } = await confirmReset.mutateAsync({ token, password, confirm });
          // A reset does not end the API keys the person made: said here and in the email that follows.
          const stillWorking =
            keys === 0
              ? ''
              : ` ${keys === 1 ? 'Your API key still works' : `Your ${keys} API keys still work`}: revoke them in Settings → Integrations if they should stop.`;
          toast.success(`Your password is changed. Sign in with it.${stillWorking}`);
          void navigate('/login', { replace: true });
        }}
      />
    </AuthCard>
  );
}
