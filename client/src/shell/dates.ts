/** Date locales shipped (SPEC.md section 1): English and Spanish, for the calendars (dayjs). */
import 'dayjs/locale/es';
import 'dayjs/locale/en';
