import { describe, expect, it } from 'vitest';
import { planTextIn } from './plan-text';

describe('planTextIn', () => {
  const both = { name: 'חבילה', description: 'תיאור', nameEn: 'Package', descriptionEn: 'About it' };

  it('shows each reader the package in their language', () => {
    expect(planTextIn(both, 'he')).toEqual({ name: 'חבילה', description: 'תיאור' });
    expect(planTextIn(both, 'en')).toEqual({ name: 'Package', description: 'About it' });
  });

  it('falls back to the other language, field by field, when one is missing', () => {
    expect(planTextIn({ name: 'חבילה', description: 'תיאור' }, 'en')).toEqual({ name: 'חבילה', description: 'תיאור' });
    expect(planTextIn({ ...both, descriptionEn: ' ' }, 'en')).toEqual({ name: 'Package', description: 'תיאור' });
    expect(planTextIn({ ...both, description: '' }, 'he')).toEqual({ name: 'חבילה', description: 'About it' });
  });
});
