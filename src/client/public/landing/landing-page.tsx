import { PublicLayout } from '#client/public/layout/public-layout.tsx';
import { AboutSection } from './components/about-section.tsx';
import { ContactSection } from './components/contact-section.tsx';
import { HeroSection } from './components/hero-section.tsx';
import { HowItWorksSection } from './components/how-it-works-section.tsx';
import { ServicesSection } from './components/services-section.tsx';
import { WhyChooseSection } from './components/why-choose-section.tsx';

/** `/`, the marketing page (docs/product-rules.md, "Pages"). */
export function LandingPage() {
  return (
    <PublicLayout overlayHeader>
      <HeroSection />
      <AboutSection />
      <ServicesSection />
      <HowItWorksSection />
      <WhyChooseSection />
      <ContactSection />
    </PublicLayout>
  );
}
